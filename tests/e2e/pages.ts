import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every chapter URL the book should have, derived from the content folder (not from the built site). */
export function chapterPaths(): string[] {
  return readdirSync(
    join(process.env.RANKS_CONTENT_DIR ?? join(process.cwd(), 'content'), 'chapters'),
  )
    .filter((f) => /^\d+-.+\.mdx$/.test(f))
    .sort()
    .map((f) => `/chapters/${f.replace(/^\d+-/, '').replace(/\.mdx$/, '')}/`);
}

export const firstChapterPath = '/chapters/what-is-data-parallelism/';
