/**
 * Output of a large world, readable: one rank's lines in full (rank 0 by default), then every other rank's
 * lines with identical lines folded into one, tagged with the ranks that printed them ("ranks 1–1023: …").
 * The CLI prints it for worlds above FOLD_ABOVE_RANKS; the page shows it with a way to pick any rank.
 */

/** Worlds up to this size print every rank's lines as they come; larger ones fold. */
export const FOLD_ABOVE_RANKS = 16;

/** One line as shown folded: its text and every rank that printed it at the same place in its output. */
export interface FoldedLine {
  ranks: number[];
  text: string;
  /** The line is an error (or a warning): kept apart from output lines with the same text. */
  kind?: string;
}

/** "rank 3", "ranks 1–7, 9, 12–15": ascending ranks as runs. */
export function describeRanks(ranks: readonly number[]): string {
  const sorted = [...ranks].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    runs.push(j === i ? `${sorted[i]}` : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return `${sorted.length === 1 ? 'rank' : 'ranks'} ${runs.join(', ')}`;
}

/**
 * Folds per-rank output: `lines[r]` is rank r's lines in order. The shown rank's lines come first, one each;
 * then, for every other rank, its n-th line joins every other rank whose n-th line has the same text and
 * kind. Groups come in order of their lowest rank, then of n, so a block of identical ranks reads as one.
 */
export function foldRankLines(
  lines: readonly (readonly { text: string; kind?: string }[])[],
  shown = 0,
): FoldedLine[] {
  const out: FoldedLine[] = (lines[shown] ?? []).map((l) => ({
    ranks: [shown],
    text: l.text,
    ...(l.kind === undefined ? {} : { kind: l.kind }),
  }));
  const groups = new Map<string, FoldedLine & { index: number }>();
  lines.forEach((rankLines, rank) => {
    if (rank === shown) return;
    rankLines.forEach((l, index) => {
      const key = `${index}\u0000${l.kind ?? ''}\u0000${l.text}`;
      const group = groups.get(key);
      if (group) group.ranks.push(rank);
      else
        groups.set(key, {
          ranks: [rank],
          text: l.text,
          index,
          ...(l.kind === undefined ? {} : { kind: l.kind }),
        });
    });
  });
  const folded = [...groups.values()].sort(
    (a, b) => a.ranks[0]! - b.ranks[0]! || a.index - b.index,
  );
  for (const { index: _index, ...line } of folded) out.push(line);
  return out;
}
