import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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

/**
 * The text a reader sees, minus what may legitimately hold braces: multi-line code listings
 * (<pre>: playground sources, Python and bash samples), scripts, styles, and KaTeX's copy of the
 * LaTeX source. Inline <code> stays in: that is exactly where an unevaluated expression hides.
 */
export function visibleText(html: string): string {
  return (
    html
      .replace(/<(pre|script|style|template|annotation)\b[\s\S]*?<\/\1>/gi, ' ')
      // Tags go whole, quoted attributes included (a playground's data-code holds `=>` and braces).
      .replace(/<[^\s>"'][^>"']*(?:"[^"]*"[^>"']*|'[^']*'[^>"']*)*>/g, ' ')
      .replace(/&#123;|&lbrace;/g, '{')
      .replace(/&#125;|&rbrace;/g, '}')
  );
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

test('the check itself catches a leftover in inline code and ignores code listings and math @pages', () => {
  const leftover =
    '<p>The default is <code>bucket_cap_mb={DDP_BUCKET_CAP_MB}</code> and {fmt(x, 2)}.</p>';
  expect(visibleText(leftover).match(EXPRESSION)).toEqual(['{DDP_BUCKET_CAP_MB}', '{fmt(x, 2)}']);
  const legitimate =
    '<pre><code>print(f"rank {rank}")</code></pre><span class="katex"><annotation encoding="application/x-tex">\\frac{n}{x}</annotation></span><p>{ dist } is { a: 1 }</p><ranks-playground data-code="x => ({a}) > {b}"></ranks-playground>';
  expect(visibleText(legitimate).match(EXPRESSION)).toBeNull();
});
