import { describe, expect, it } from 'vitest';
import { readingMinutes } from '../../../src/lib/reading-time';

describe('reading time', () => {
  it('counts prose at about 220 words a minute', () => {
    expect(readingMinutes(Array(2200).fill('word').join(' '))).toBe(10);
  });

  it('never says zero minutes', () => {
    expect(readingMinutes('')).toBe(1);
  });

  it('ignores frontmatter, imports and markup', () => {
    const body = `---\ntitle: ${'x '.repeat(5000)}\n---\nimport A from './a';\n<Playground src="x.ts" />\n${'word '.repeat(440)}`;
    expect(readingMinutes(body)).toBe(2);
  });
});
