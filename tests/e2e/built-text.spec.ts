import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { visibleText } from './helpers/built-html';

// Reads the built site (no browser): words the HTML compressor could glue together, and what the
// search index stores as a page's text.
const dist = process.env.RANKS_DIST ?? 'dist';
const page = (path: string) =>
  visibleText(readFileSync(join(dist, path), 'utf8')).replace(/\s+/g, ' ');

test('the footer and the estimator keep the spaces between their words @pages', () => {
  const home = page('index.html');
  expect(home).toContain('leaves the page. Check that your browser');
  expect(home).toContain('or see where each source topic is covered');
  const ch6 = page('chapters/fsdp-and-choosing/index.html');
  expect(ch6).not.toMatch(/\d (ms|s|µs)\(/);
  expect(ch6).toMatch(/\d (ms|s|µs) \(/);
});

test('the search index holds the rendered math once, without KaTeX’s MathML and TeX copies @pages', () => {
  const dir = join(dist, 'pagefind', 'fragment');
  const texts = readdirSync(dir).map((f) => {
    // Pagefind fragments are gzipped JSON behind a "pagefind_dcd" signature.
    const raw = gunzipSync(readFileSync(join(dir, f))).toString('utf8');
    return raw.slice(raw.indexOf('{'));
  });
  const memory = texts
    .map((t) => JSON.parse(t) as { url: string; content: string })
    .find((f) => f.url.includes('memory-and-zero'));
  expect(memory, 'chapter 5 is indexed').toBeDefined();
  expect(memory!.content).not.toContain('\\Psi');
  expect(memory!.content).not.toMatch(/2Ψ2\\?Psi/);
});

test('the sources page says what each seed document is, not its hashed file name @pages', () => {
  const sources = page('sources/index.html');
  expect(sources).not.toMatch(/\d{3}_[0-9a-f]{16}\.txt/);
  expect(sources).toContain('Source document 1 of 5');
});
