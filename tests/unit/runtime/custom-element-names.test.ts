import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) =>
    statSync(join(dir, n)).isDirectory()
      ? files(join(dir, n))
      : /\.(ts|astro|mjs)$/.test(n)
        ? [join(dir, n)]
        : [],
  );

it('every custom element the site defines carries the ranks- prefix', () => {
  const defined = files(join(process.cwd(), 'src')).flatMap((f) =>
    [...readFileSync(f, 'utf8').matchAll(/customElements\.define\(\s*['"]([^'"]+)['"]/g)].map(
      (m) => m[1]!,
    ),
  );
  expect(defined.length).toBeGreaterThan(5);
  expect(defined.filter((name) => !name.startsWith('ranks-'))).toEqual([]);
});
