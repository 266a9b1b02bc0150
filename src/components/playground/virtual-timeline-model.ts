/**
 * The arithmetic behind the virtual timeline, kept free of the DOM so a unit test runs it: which steps a
 * run has, which step to show first, which ranks get a row (every rank up to MAX_RANK_ROWS, else rank 0
 * and arrival percentiles), and the zoom window.
 */

import {
  arrivals,
  representativeRanks,
  type ArrivalPick,
  type Arrivals,
} from '../../../playground/cluster/protocol.ts';

/** The fields of a span the timeline's arithmetic reads. */
export interface TimedSpan {
  rank: number;
  step: number;
  start: number;
  end: number;
}

/** Up to this many ranks each get their own pair of lanes; a larger world shows representative ranks. */
export const MAX_RANK_ROWS = 16;

/** The view a reader picked: one step or the whole run. */
export type StepChoice = number | 'all';

export function stepNumbers(spans: readonly TimedSpan[]): number[] {
  const steps = new Set<number>();
  for (const s of spans) steps.add(s.step);
  return [...steps].sort((a, b) => a - b);
}

/**
 * The step the timeline opens on: the last step the step report lists that moved bytes (a whole training
 * step, where overlap shows; a trailing forward + backward alone, as under noSync, has no comm lane to
 * read), else the last reported step, else the last step with spans, else the whole run.
 */
export function defaultStep(
  steps: readonly number[],
  reported: readonly number[],
  communicated: ReadonlySet<number> = new Set(),
): StepChoice {
  const listed = reported.filter((s) => steps.includes(s));
  for (let i = listed.length - 1; i >= 0; i--) if (communicated.has(listed[i]!)) return listed[i]!;
  return listed.at(-1) ?? steps.at(-1) ?? 'all';
}

/** First start and last end of some spans ([0, 0] for none). */
export function extent(spans: readonly TimedSpan[]): [number, number] {
  let t0 = Infinity;
  let t1 = -Infinity;
  // A loop, not Math.min(...spread): a spread of 20 k arguments can overflow the call stack.
  for (const s of spans) {
    t0 = Math.min(t0, s.start);
    t1 = Math.max(t1, s.end);
  }
  return t0 <= t1 ? [t0, t1] : [0, 0];
}

export interface RankRow {
  rank: number;
  /** 'rank 3', or 'p99 r1017' for a representative of a large world. */
  label: string;
}

export interface RankRows {
  rows: RankRow[];
  /** For a large world: who is fastest, at each percentile and slowest, and by what measure. */
  summary?: string;
  /** For a large world: the arrival percentiles the view draws as a band. */
  arrival?: Arrivals;
}

/**
 * Rows to draw. Up to MAX_RANK_ROWS ranks: one row each. Beyond: rank 0 (the rank whose output the page
 * shows first) and the ranks at the fastest, p50, p90, p99 and slowest arrival, by when each finished its
 * last span in view (playground/cluster/arrival-percentiles.ts), so the slowest rank is named and a
 * 1,024-rank world draws a handful of rows, not 1,024. `complete` is the arrival over every rank when the
 * spans are a subset (a large world's record keeps rank 0's and each step's fastest and slowest rank's):
 * then only the ranks with spans get a row, and the percentiles are the band's lines.
 */
export function rankRows(
  spans: readonly TimedSpan[],
  worldSize: number,
  format: (seconds: number) => string,
  complete?: Arrivals | null,
): RankRows {
  if (worldSize <= MAX_RANK_ROWS)
    return { rows: Array.from({ length: worldSize }, (_, r) => ({ rank: r, label: `rank ${r}` })) };
  const arrival = complete ?? arrivals(spans);
  if (!arrival) return { rows: [] };
  const drawn = new Set(spans.map((s) => s.rank));
  const rows = [...representativeRanks(arrival)]
    .filter(([rank]) => drawn.has(rank))
    .map(([rank, roles]) => ({
      rank,
      label: roles.length ? `${roles.join(', ')} r${rank}` : `rank ${rank}`,
    }));
  const at = (p: ArrivalPick) => `${p.role} rank ${p.rank} at ${format(p.time)}`;
  return {
    rows,
    arrival,
    summary:
      `${worldSize.toLocaleString('en')} ranks are too many rows to read: the timeline draws rank 0 and ` +
      (complete
        ? 'the fastest and slowest rank'
        : 'the ranks at the fastest, 50th, 90th and 99th percentile and slowest arrival') +
      `, by when each of the ${arrival.ranks.toLocaleString('en')} ranks finished its last span here ` +
      `(${arrival.picks.map(at).join('; ')}); the shaded band spans the arrivals, an arrival skew of ${format(arrival.skew)}, ` +
      `with a line at the 50th, 90th and 99th percentile. The step waits for the slowest rank.`,
  };
}

/** A time window [from, to] inside the run's extent. */
export interface Window {
  from: number;
  to: number;
}

/** Keeps the window's width (at least `minWidth`, at most the extent) and slides it inside [t0, t1]. */
export function clampWindow(w: Window, t0: number, t1: number, minWidth: number): Window {
  const full = Math.max(t1 - t0, minWidth);
  const width = Math.min(Math.max(w.to - w.from, minWidth), full);
  const from = Math.min(Math.max(w.from, t0), t0 + full - width);
  return { from, to: from + width };
}

/** Zooms by `factor` (> 1 zooms in) about the point `at` of the window (0 = left edge, 1 = right edge). */
export function zoomWindow(w: Window, factor: number, at = 0.5): Window {
  const width = (w.to - w.from) / factor;
  const pivot = w.from + (w.to - w.from) * at;
  return { from: pivot - width * at, to: pivot - width * at + width };
}

/** Pans by a fraction of the window's width (negative: earlier). */
export function panWindow(w: Window, fraction: number): Window {
  const d = (w.to - w.from) * fraction;
  return { from: w.from + d, to: w.to + d };
}

/** About `count` round tick times (1, 2 or 5 × 10^k apart) inside the window. */
export function ticks(w: Window, count = 5): number[] {
  const width = w.to - w.from;
  if (!(width > 0)) return [w.from];
  const raw = width / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let t = Math.ceil(w.from / step) * step; t <= w.to + step * 1e-9; t += step)
    out.push(Number(t.toPrecision(12)));
  return out;
}
