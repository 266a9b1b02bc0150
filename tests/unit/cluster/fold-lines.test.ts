// Issue 30, point 3: a large world's output as rank 0 plus identical lines folded.
import { describe, expect, it } from 'vitest';
import {
  describeRanks,
  foldRankLines,
  LineFolder,
} from '../../../playground/cluster/fold-lines.ts';

const out = (...texts: string[]) => texts.map((text) => ({ text }));

describe('folded output', () => {
  it('names ranks as ascending runs', () => {
    expect(describeRanks([3])).toBe('rank 3');
    expect(describeRanks([9, 1, 2, 3, 12, 13, 15, 14])).toBe('ranks 1–3, 9, 12–15');
  });

  it('shows rank 0 in full, then folds the others line by line', () => {
    const lines = Array.from({ length: 1024 }, (_, r) =>
      out('loss 0.5', r === 7 ? 'diverged' : 'done', `rank ${r}`),
    );
    const folded = foldRankLines(lines);
    expect(folded.slice(0, 3)).toEqual([
      { ranks: [0], text: 'loss 0.5' },
      { ranks: [0], text: 'done' },
      { ranks: [0], text: 'rank 0' },
    ]);
    const rest = folded.slice(3).map((l) => `${describeRanks(l.ranks)}: ${l.text}`);
    expect(rest.slice(0, 4)).toEqual([
      'ranks 1–1023: loss 0.5',
      'ranks 1–6, 8–1023: done',
      'rank 1: rank 1',
      'rank 2: rank 2',
    ]);
    expect(rest).toContain('rank 7: diverged');
    expect(rest).toHaveLength(2 + 1 + 1023);
  });

  it('keeps errors apart from output with the same text, and can show any rank', () => {
    const lines = [
      out('a'),
      [{ text: 'x', kind: 'failure' }],
      [{ text: 'x', kind: 'log' }],
      [{ text: 'x', kind: 'failure' }],
    ];
    expect(foldRankLines(lines, 2)).toEqual([
      { ranks: [2], text: 'x', kind: 'log' },
      { ranks: [0], text: 'a' },
      { ranks: [1, 3], text: 'x', kind: 'failure' },
    ]);
  });

  it('folds as lines arrive, in any order of ranks, the same as folding afterwards', () => {
    const lines = Array.from({ length: 64 }, (_, r) => out('start', `rank ${r % 2}`, 'done'));
    const folder = new LineFolder();
    // Two workers' ranks interleaved, line by line, as logical ranks print.
    for (let i = 0; i < 3; i++)
      for (let k = 0; k < 32; k++) for (const r of [k, 63 - k]) folder.add(r, lines[r]![i]!);
    for (const shown of [0, 5, 63])
      expect(folder.view(shown).lines).toEqual(foldRankLines(lines, shown));
    // A limit draws that many and says how many there are.
    const { lines: first, total } = folder.view(0, 4);
    expect(first.map((l) => `${describeRanks(l.ranks)}: ${l.text}`)).toEqual([
      'rank 0: start',
      'rank 0: rank 0',
      'rank 0: done',
      'ranks 1–63: start',
    ]);
    expect(total).toBe(3 + 4);
  });

  it('keeps each rank’s first lines up to its limit and counts the rest', () => {
    const folder = new LineFolder(2);
    for (let i = 0; i < 5; i++) folder.add(1, { text: `line ${i}` });
    expect(folder.view(1).lines.map((l) => l.text)).toEqual(['line 0', 'line 1']);
    expect(folder.beyond).toBe(3);
  });

  it('counts a rank’s warnings apart from its output, so a warning does not shift its lines', () => {
    const lines = [
      out('start', 'done'),
      [{ text: 'start' }, { text: 'rank 1 has waited 5 s', kind: 'warn' }, { text: 'done' }],
      out('start', 'done'),
    ];
    expect(foldRankLines(lines).map((l) => `${describeRanks(l.ranks)}: ${l.text}`)).toEqual([
      'rank 0: start',
      'rank 0: done',
      'ranks 1–2: start',
      'rank 1: rank 1 has waited 5 s',
      'ranks 1–2: done',
    ]);
  });
});
