import { execFileSync } from 'node:child_process';
import { basename } from 'node:path';
import { expect, it } from 'vitest';

// One naming style across the repo (README, "Project layout"): kebab-case files, PascalCase Astro
// components, snake_case Python (content/twins/ take their playground's kebab-case name). Dotted suffixes (.test.ts, .spec.ts, .d.ts) are part of the name.
const tracked = execFileSync('git', ['ls-files', 'src', 'playground', 'content', 'tests'], {
  encoding: 'utf8',
})
  .trim()
  .split('\n');

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*$/;
const PASCAL = /^[A-Z][A-Za-z0-9]*\.astro$/;
const SNAKE = /^[a-z0-9_]+\.py$/;

function allowed(file: string): boolean {
  const name = basename(file);
  if (/^[A-Z]+\.md$/.test(name)) return true; // README.md, RESULTS.md: the usual upper-case docs
  if (name.endsWith('.astro')) return PASCAL.test(name) || file.startsWith('src/pages/');
  if (name.endsWith('.py')) return SNAKE.test(name) || KEBAB.test(name);
  return KEBAB.test(name) || file.startsWith('src/pages/') || file.startsWith('tests/reference/');
}

it('every tracked source file follows the one naming style', () => {
  expect(tracked.length).toBeGreaterThan(200);
  expect(tracked.filter((f) => !allowed(f))).toEqual([]);
});
