import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { visibleText } from './helpers/built-html';

// MDX leaves `{NAME}` unevaluated inside backticks and code, and the page then prints the braces.
// This reads every built page's HTML (no browser needed) and looks for such leftovers.
const dist = process.env.RANKS_DIST ?? 'dist';

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name.startsWith('.') || name === '_astro' || name === 'pagefind') return [];
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

// An expression as the chapters write them, `{name}`, `{a.b}`, `{f(x, 2)}`: no space inside the braces
// (code samples write `{ dist }` or `{ op: 'avg' }`).
const EXPRESSION = /\{[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\([^{}()]*\)|\[[^\]{}]*\])*\}/g;

test('no built page prints an unevaluated {NAME} expression @pages', () => {
  const files = htmlFiles(dist);
  expect(files.length, `HTML files under ${dist}/ (run npm run build first)`).toBeGreaterThan(10);
  const hits = files.flatMap((file) =>
    [...visibleText(readFileSync(file, 'utf8')).matchAll(EXPRESSION)].map(
      (m) => `${relative(dist, file)}: ${m[0]}`,
    ),
  );
  expect(hits).toEqual([]);
});

/**
 * MDX does not evaluate `{expr}` inside `$…$` either: KaTeX reads the braces as a TeX group and prints
 * the expression's letters as math ("K = paperB.optimizer"). The TeX source survives in KaTeX's
 * <annotation>, so look there for the shapes only JavaScript writes: a member access or call
 * (`{a.b}`, `{f(x)}`) or a camelCase name (`{chapterB}`), not after a TeX command (`\text{…}`).
 */
export function mathSources(html: string): string[] {
  return [
    ...html.matchAll(/<annotation encoding="application\/x-tex">([\s\S]*?)<\/annotation>/g),
  ].map((m) => m[1]!.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
}
const MATH_EXPRESSION =
  /(?<!\\[A-Za-z]+)\{(?:[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\([^{}()]*\))+|[a-z]+[A-Z][\w$]*)\}/g;

test('no built page has an unevaluated {expr} inside math @pages', () => {
  const files = htmlFiles(dist);
  expect(files.length, `HTML files under ${dist}/ (run npm run build first)`).toBeGreaterThan(10);
  const hits = files.flatMap((file) =>
    mathSources(readFileSync(file, 'utf8')).flatMap((tex) =>
      [...tex.matchAll(MATH_EXPRESSION)].map(() => `${relative(dist, file)}: $${tex}$`),
    ),
  );
  expect(hits).toEqual([]);
});

test('the math check catches JavaScript shapes and ignores TeX groups @pages', () => {
  const tex = (t: string) => `<annotation encoding="application/x-tex">${t}</annotation>`;
  const bad = [tex('K = {paperB.optimizer}'), tex('2 + 2 + {chapterB}'), tex('{fmt(x, 2)}\\Psi')];
  expect(bad.map((h) => mathSources(h)[0]!.match(MATH_EXPRESSION)?.length ?? 0)).toEqual([1, 1, 1]);
  const good = tex(
    '\\frac{n-1}{n}\\Psi + P_{os+g} + \\text{activation bytes} + \\mathrm{busBw} + {K}',
  );
  expect(mathSources(good)[0]!.match(MATH_EXPRESSION)).toBeNull();
});

test('the check itself catches a leftover in inline code and ignores code listings and math @pages', () => {
  const leftover =
    '<p>The default is <code>bucket_cap_mb={DDP_BUCKET_CAP_MB}</code> and {fmt(x, 2)}.</p>';
  expect(visibleText(leftover).match(EXPRESSION)).toEqual(['{DDP_BUCKET_CAP_MB}', '{fmt(x, 2)}']);
  const legitimate =
    '<pre><code>print(f"rank {rank}")</code></pre><span class="katex"><annotation encoding="application/x-tex">\\frac{n}{x}</annotation></span><p>{ dist } is { a: 1 }</p><ranks-playground data-code="x => ({a}) > {b}"></ranks-playground>';
  expect(visibleText(legitimate).match(EXPRESSION)).toBeNull();
});
