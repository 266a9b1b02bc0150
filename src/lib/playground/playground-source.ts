import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';

/** Folder that holds every playground program, next to the chapters that embed them. */
export function playgroundDir(): string {
  return join(
    process.env.RANKS_CONTENT_DIR ?? join(process.cwd(), 'content'),
    'chapters',
    'playgrounds',
  );
}

/** Reads a playground program at build time; a missing file fails the build naming the file. */
export function readPlaygroundSource(src: string): string {
  const rel = normalize(src.replace(/^\.\/(playgrounds\/)?/, ''));
  if (rel.startsWith('..'))
    throw new Error(`Playground src "${src}" must stay inside content/chapters/playgrounds/`);
  const path = join(playgroundDir(), rel);
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new Error(`Playground src "${src}" not found: expected ${path}`);
  }
}

/** Stable id for a playground: its file name, or a short hash of inline code (used for saved edits). */
export function playgroundId(src: string | undefined, code: string): string {
  if (src) return src.replace(/^\.\/(playgrounds\/)?/, '').replace(/\.ts$/, '');
  let h = 2166136261;
  for (let i = 0; i < code.length; i++) h = Math.imul(h ^ code.charCodeAt(i), 16777619);
  return `inline-${(h >>> 0).toString(36)}`;
}
