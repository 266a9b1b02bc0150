import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every figure the chapters print must come from an expression over src/lib/figures, never a
// literal typed into the prose: this test strips code, math and expressions and looks for numbers.
const CHAPTERS = [
  '01-what-is-data-parallelism.mdx',
  '02-collectives.mdx',
  '03-data-parallel-from-scratch.mdx',
  '04-inside-ddp.mdx',
  '05-memory-and-zero.mdx',
  '06-fsdp-and-choosing.mdx',
  '07-activations-and-precision.mdx',
  '08-batch-size-and-learning-rate.mdx',
  '09-operating-at-scale.mdx',
  '10-communicating-less.mdx',
];
const dir = join(process.cwd(), 'content', 'chapters');

/** Remove what may legitimately hold digits: frontmatter, imports/exports, code, JSX expressions and tag attributes. */
function prose(src: string): { text: string; math: string[] } {
  let s = src.replace(/^---[\s\S]*?\n---\n/, '');
  s = s.replace(/^(import|export) .*$/gm, '');
  s = s.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const math: string[] = [];
  s = s.replace(/\$\$[\s\S]*?\$\$|\$[^$\n]+\$/g, (m) => {
    math.push(m);
    return ' ';
  });
  // Strip balanced {…} expressions (they may nest) before tags, whose attributes hold expressions too.
  let out = '',
    depth = 0;
  for (const ch of s) {
    if (ch === '{') depth++;
    else if (ch === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  out = out.replace(/<[^>]*>/g, ' ');
  return { text: out, math };
}

// A number with a unit, a parameter-count suffix, a multiplier, a percentage, or a decimal point.
const LITERAL_FIGURE =
  /(?<![\w-])\d[\d,]*(\.\d+)?\s*(GB\/s|Gb\/s|GB|MB|kB|KB|TB|GiB|MiB|KiB|bytes?|B\b|µs|μs|ms|s\b|%|×|x\b|TFLOP|tokens|GPUs|parameters)|(?<![\w.-])\d+\.\d+|(?<![\w-])\d+(\.\d+)?[BMT]\b/g;
// Allowed: names that contain digits (ZeRO-1, fp16, bf16, fp32, Chapter 3, NVLink 4) and years in citations.
const ALLOWED = /^(\d{4})$/;

describe('the literal-figure scan', () => {
  it('catches a typed time or bandwidth and lets an expression through', () => {
    const { text } = prose('It takes 75.2 ms, {fmtSeconds(t)} or 9.6 μs over 370.8 GB/s.');
    expect([...text.matchAll(LITERAL_FIGURE)].map((m) => m[0].trim())).toEqual([
      '75.2 ms',
      '9.6 μs',
      '370.8 GB/s',
    ]);
  });
});

describe.each(CHAPTERS)('%s prints no literal figures', (file) => {
  const src = readFileSync(join(dir, file), 'utf8');
  const { text, math } = prose(src);
  it('prose and tables use expressions for every number with a unit', () => {
    const hits = [...text.matchAll(LITERAL_FIGURE)]
      .map((m) => m[0].trim())
      .filter((h) => !ALLOWED.test(h));
    expect(hits, `literal figures in ${file}: ${hits.join(' | ')}`).toEqual([]);
  });
  it('math holds formulas, not results (no decimals, no numbers of three or more digits)', () => {
    const bad = math.filter((m) => /\d\.\d|\d{3,}/.test(m));
    expect(bad).toEqual([]);
  });
  it('imports its figures from src/lib/figures', () => {
    expect(src).toMatch(/from '\.\.\/\.\.\/src\/lib\/figures\//);
  });
});

describe('chapter 5 carries the corrections', () => {
  const src = readFileSync(join(dir, '05-memory-and-zero.mdx'), 'utf8');
  it('has the "Two mistakes to avoid" aside, quoting the common wrong figures through sourceErrata', () => {
    expect(src).toContain('Two mistakes to avoid when you size ZeRO');
    expect(src).toContain('SOURCE_70B_TABLE.zero2');
    expect(src).toContain('SOURCE_ZERO3_COMM_MULTIPLE');
  });
  it('prints the 70B table in both accountings and the comm table from commVolume', () => {
    expect(src).toMatch(/perGpu\(s, 'paper'\)/);
    expect(src).toMatch(/perGpu\(s, 'chapter'\)/);
    expect(src).toMatch(/commRatioToDdp\(r\.strategy, r\.implementation\)/);
    expect(src).toMatch(/byLayout\(s, 'fp32-weights'\)/);
  });
  it('says ZeRO-1 all-gathers the updated parameters and that optimizer state never moves', () => {
    expect(src).toMatch(/all-gather\*?\s+of\s+the\s+updated half-precision parameters/);
    expect(src).toMatch(/Optimizer state\s+never leaves its rank/);
  });
});
