// Issue 30, point 3: a large world's output as rank 0 plus identical lines folded.
import { describe, expect, it } from 'vitest';
import { describeRanks, foldRankLines } from '../../../playground/cluster/fold-lines.ts';

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
});
