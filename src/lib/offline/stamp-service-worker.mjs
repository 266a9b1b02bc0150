// Build step after `astro build` and Pagefind: names the service worker's cache after a hash of the whole
// built site, so every deploy that changes a file gets a fresh cache and readers drop the old one, and lists
// the search index files the worker saves when it installs, and gives it every file's SHA-256 so it serves
// from its cache only what this build wrote (a poisoned entry is refused). Usage: node stamp-service-worker.mjs dist
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { siteHeaders } from '../site/host-headers.mjs';

const WORKER = 'isolation-sw.js';
const PLACEHOLDER = /^const BUILD = \{ id: 'dev', searchFiles: \[\] \};$/m;
const HEADERS_PLACEHOLDER = /^const HOST_HEADERS = \{\n[^}]*\n\};$/m;

/** Every file under dir, as sorted '/'-separated paths relative to root. */
function filesUnder(root, dir = root) {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory()
        ? filesUnder(root, path)
        : [relative(root, path).split(sep).join('/')];
    })
    .sort();
}

export function stampServiceWorker(dist) {
  const workerPath = join(dist, WORKER);
  const source = readFileSync(workerPath, 'utf8');
  if (!PLACEHOLDER.test(source))
    throw new Error(
      `${workerPath} has no unstamped "const BUILD = { id: 'dev', searchFiles: [] };" line.`,
    );
  if (!HEADERS_PLACEHOLDER.test(source))
    throw new Error(`${workerPath} has no unstamped "const HOST_HEADERS = { … };" block.`);
  // Every file counts, the worker's own unstamped code too, so a change to either renames the cache.
  const files = filesUnder(dist);
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(dist, file)))
      .update('\0');
  const id = hash.digest('hex').slice(0, 16);
  // Each file's digest as the worker computes it (crypto.subtle, base64), keyed by its URL path.
  const digests = Object.fromEntries(
    files
      .filter((f) => f !== WORKER)
      .map((f) => [
        `/${f}`,
        createHash('sha256')
          .update(readFileSync(join(dist, f)))
          .digest('base64'),
      ]),
  );
  // Only what Pagefind's search API loads, not its unused UI bundles.
  const searchFiles = files
    .filter((f) => f.startsWith('pagefind/') && !/-ui\.|highlight/.test(f))
    .map((f) => `/${f}`);
  if (searchFiles.length === 0)
    throw new Error(
      `No Pagefind index in ${dist}/pagefind: run Pagefind before stamping the service worker.`,
    );
  // The same headers the dev server and public/_headers send (CSP included), for hosts that send none.
  const stamped = source
    .replace(PLACEHOLDER, `const BUILD = ${JSON.stringify({ id, searchFiles, digests })};`)
    .replace(HEADERS_PLACEHOLDER, () => `const HOST_HEADERS = ${JSON.stringify(siteHeaders)};`);
  writeFileSync(workerPath, stamped);
  return { id, searchFiles: searchFiles.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dist = process.argv[2] ?? 'dist';
  const { id, searchFiles } = stampServiceWorker(dist);
  console.log(`service worker: build ${id}, ${searchFiles} search index files`);
}
