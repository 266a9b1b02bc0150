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

/** A fold group while lines arrive: its ranks in arrival order, its lowest rank and its line number among its kind. */
interface Group extends FoldedLine {
  index: number;
  low: number;
}

/** What a LineFolder shows: the first `limit` folded lines and how many there are in all. */
export interface FoldedView {
  lines: FoldedLine[];
  total: number;
}

/**
 * Folds output as it arrives, for a view redrawn while a large world prints: each line joins its group in
 * O(1), so a redraw costs what it draws (and one sort of the groups), never a pass over every rank's output.
 * It keeps each rank's first `perRank` lines (what a view of that many lines can show); later ones are
 * counted in `beyond`, the run's record and log download keep them.
 */
export class LineFolder {
  private readonly byRank: { text: string; kind?: string }[][] = [];
  private readonly groups = new Map<string, Group>();
  private readonly kindCounts: Map<string, number>[] = [];
  /** Lines past a rank's first `perRank`: not folded here. */
  beyond = 0;

  private readonly perRank: number;

  constructor(perRank = Infinity) {
    this.perRank = perRank;
  }

  add(rank: number, line: { text: string; kind?: string }): void {
    const mine = (this.byRank[rank] ??= []);
    if (mine.length >= this.perRank) {
      this.beyond++;
      return;
    }
    // A line's place among its rank's lines of the same kind: a warning one rank printed (a peer was slow)
    // does not shift that rank's output lines out of line with its peers'.
    const counts = (this.kindCounts[rank] ??= new Map());
    const index = counts.get(line.kind ?? '') ?? 0;
    counts.set(line.kind ?? '', index + 1);
    mine.push(line);
    const key = `${index}\u0000${line.kind ?? ''}\u0000${line.text}`;
    const group = this.groups.get(key);
    if (group) {
      group.ranks.push(rank);
      group.low = Math.min(group.low, rank);
      return;
    }
    this.groups.set(key, {
      ranks: [rank],
      low: rank,
      text: line.text,
      index,
      ...(line.kind === undefined ? {} : { kind: line.kind }),
    });
  }

  /**
   * The shown rank's lines, one each; then, for every other rank, its n-th line of a kind joined with every
   * other rank whose n-th line of that kind has the same text (output, warnings and errors counted apart). Groups come in order of their lowest rank, then of n,
   * so a block of identical ranks reads as one. Ranks ascend within a line.
   */
  view(shown = 0, limit = Infinity): FoldedView {
    const mine = this.byRank[shown] ?? [];
    const lines: FoldedLine[] = mine.slice(0, limit).map((l) => ({
      ranks: [shown],
      text: l.text,
      ...(l.kind === undefined ? {} : { kind: l.kind }),
    }));
    const others: Group[] = [];
    for (const g of this.groups.values()) if (g.ranks.length > 1 || g.low !== shown) others.push(g);
    // Without the shown rank a group's lowest rank may be its second lowest: only the shown rank's own groups move.
    const low = (g: Group) =>
      g.low !== shown ? g.low : Math.min(...g.ranks.filter((r) => r !== shown));
    const keyed = others.map((g) => [low(g), g] as const);
    keyed.sort((a, b) => a[0] - b[0] || a[1].index - b[1].index);
    for (const [, g] of keyed) {
      if (lines.length >= limit) break;
      const ranks = g.ranks.filter((r) => r !== shown).sort((a, b) => a - b);
      lines.push({ ranks, text: g.text, ...(g.kind === undefined ? {} : { kind: g.kind }) });
    }
    return { lines, total: mine.length + others.length };
  }
}

/**
 * Folds per-rank output: `lines[r]` is rank r's lines in order (see LineFolder.view for the order).
 */
export function foldRankLines(
  lines: readonly (readonly { text: string; kind?: string }[])[],
  shown = 0,
): FoldedLine[] {
  const folder = new LineFolder();
  lines.forEach((rankLines, rank) => rankLines.forEach((l) => folder.add(rank, l)));
  return folder.view(shown).lines;
}
