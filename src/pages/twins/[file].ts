import type { APIRoute, GetStaticPaths } from 'astro';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { twinDir, twinFiles } from '../../lib/playground/twin-source';

/** /twins/NN-name.py and /twins/ranks_twin.py: the PyTorch twins as downloadable files, built from content/twins/. */
export const getStaticPaths: GetStaticPaths = () =>
  twinFiles().map((file) => ({ params: { file } }));

export const GET: APIRoute = ({ params }) =>
  new Response(readFileSync(join(twinDir(), params.file!), 'utf8'), {
    headers: { 'Content-Type': 'text/x-python; charset=utf-8' },
  });
