import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';
import { PRIMARY_SOURCES, SOURCE_MAP, chapterHref } from '../../../src/lib/source-map';

const dir = join(process.cwd(), 'content', 'chapters');

/** Heading ids as Astro's MDX pipeline makes them: github-slugger over the heading text, in order. */
function headingIds(file: string): Set<string> {
  const src = readFileSync(join(dir, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const slugger = new GithubSlugger();
  return new Set(
    [...src.matchAll(/^#{2,6} (.+)$/gm)].map((m) =>
      slugger.slug(m[1]!.replace(/`/g, '').replace(/\*\*?/g, '')),
    ),
  );
}

describe('source map', () => {
  it('covers all five source documents', () => {
    expect(SOURCE_MAP.map((d) => d.file.slice(0, 3))).toEqual(['000', '001', '002', '003', '004']);
  });
  it.each(
    SOURCE_MAP.flatMap((d) =>
      d.topics.map((t) => [d.file.slice(0, 3), t.topic, t.chapter, t.anchor] as const),
    ),
  )('%s "%s" → %s#%s exists', (_, __, chapter, anchor) => {
    expect(readdirSync(dir)).toContain(chapter);
    expect([...headingIds(chapter)]).toContain(anchor);
  });
  it('lists every correction of seeds/README.md errata 1–6', () => {
    const corrections = SOURCE_MAP.flatMap((d) => d.topics.map((t) => t.correction ?? '')).join(
      '\n',
    );
    for (const needle of [
      '227.5 GB',
      'never optimizer state',
      '1.5×',
      '2(n−1)/n',
      '|B_r|/|B|',
      'stragglers',
    ])
      expect(corrections).toContain(needle);
  });
  it.each(PRIMARY_SOURCES.map((c) => [c.source, c.chapter, c.anchor] as const))(
    'primary source "%s" → %s#%s exists',
    (_, chapter, anchor) => {
      expect([...headingIds(chapter)]).toContain(anchor);
    },
  );
  it('every primary citation names a file, function or section and links to it', () => {
    for (const c of PRIMARY_SOURCES) {
      expect(c.source, c.claim).toMatch(
        /\.(py|cc|cpp|cu|h|rst|md)\b|section|§|Table \d|Algorithm \d|abstract|issue|comment/,
      );
      expect(c.url, c.claim).toMatch(/^https:\/\//);
    }
  });
  it('builds chapter URLs without the number prefix', () => {
    expect(chapterHref('02-collectives.mdx')).toBe('/chapters/collectives/');
  });
});
