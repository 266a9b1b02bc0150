/**
 * A large world's arrival skew: when each rank finished its last span, and which ranks stand for the
 * world at the fastest, p50, p90, p99 and slowest arrival. A step waits for the slowest rank, so these
 * few ranks (plus rank 0) are what the timeline draws and the trace download keeps above
 * FOLD_ABOVE_RANKS, instead of a row per rank.
 */

/** The arrival percentiles a large world is shown by, as [name, quantile]. */
export const ARRIVAL_PERCENTILES: readonly (readonly [string, number])[] = [
  ['fastest', 0],
  ['p50', 0.5],
  ['p90', 0.9],
  ['p99', 0.99],
  ['slowest', 1],
];

/** One percentile's representative: the rank whose last span ended there, and when. */
export interface ArrivalPick {
  role: string;
  rank: number;
  time: number;
}

export interface Arrivals {
  /** One per ARRIVAL_PERCENTILES entry, fastest first (a rank may stand for several). */
  picks: ArrivalPick[];
  /** Ranks with at least one span. */
  ranks: number;
  /** Slowest minus fastest arrival (seconds). */
  skew: number;
}

/**
 * Nearest-rank percentiles of each rank's last span end (ties broken by the lower rank, so the choice is
 * the same on every run with the same times); null when no rank has a span.
 */
export function arrivals(spans: Iterable<{ rank: number; end: number }>): Arrivals | null {
  const finish = new Map<number, number>();
  for (const s of spans) {
    const seen = finish.get(s.rank);
    if (seen === undefined || s.end > seen) finish.set(s.rank, s.end);
  }
  const order = [...finish].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  if (order.length === 0) return null;
  const picks = ARRIVAL_PERCENTILES.map(([role, q]) => {
    const [rank, time] = order[Math.round(q * (order.length - 1))]!;
    return { role, rank, time };
  });
  return { picks, ranks: order.length, skew: order.at(-1)![1] - order[0]![1] };
}

/** Rank 0 and each pick's rank, once each, with every role a rank stands for ("p99, slowest"). */
export function representativeRanks(a: Arrivals): Map<number, string[]> {
  const roles = new Map<number, string[]>([[0, []]]);
  for (const p of a.picks) {
    const r = roles.get(p.rank);
    if (r) r.push(p.role);
    else roles.set(p.rank, [p.role]);
  }
  return roles;
}
