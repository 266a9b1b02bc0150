/**
 * The ring all-reduce schedule, step by step: which chunk each rank receives from its left
 * neighbour at every step, in the same shape as the runtime's TraceEvent so the animation can
 * replay either this schedule or a trace recorded from a live run.
 */

import type { TraceEvent } from '../../../playground/cluster/protocol.ts';

/** A step of the ring, as the runtime's collective trace records it. */
export type RingTraceEvent = TraceEvent & { kind: 'allReduce' };

export type RingPhase = 'reduce-scatter' | 'all-gather';

/** Chunk index rank `rank` receives (and reduces or copies) at global step `step`; same rule as the runtime's ring. */
export function chunkReceived(rank: number, step: number, n: number): number {
  const s = step < n - 1 ? step : step - (n - 1);
  return step < n - 1 ? (((rank - 1 - s) % n) + 2 * n) % n : (((rank - s) % n) + n) % n;
}

export function phaseOf(step: number, n: number): RingPhase {
  return step < n - 1 ? 'reduce-scatter' : 'all-gather';
}

/** Elements of chunk `c` when `elements` are split into n chunks as evenly as possible (first ones one larger). */
export function chunkElements(elements: number, n: number, c: number): number {
  return Math.floor(elements / n) + (c < elements % n ? 1 : 0);
}

/**
 * The full schedule of a ring all-reduce of `bytes` (float32) over n ranks: 2(n−1) steps, one event per
 * rank per step; start/end are step indices, not milliseconds.
 */
export function ringAllReduceSchedule(n: number, bytes: number): RingTraceEvent[] {
  if (!Number.isInteger(n) || n < 2) throw new Error(`a ring needs at least 2 ranks, got ${n}`);
  const elements = Math.floor(bytes / 4);
  const events: RingTraceEvent[] = [];
  for (let step = 0; step < 2 * (n - 1); step++) {
    for (let rank = 0; rank < n; rank++) {
      const chunk = chunkReceived(rank, step, n);
      events.push({
        rank,
        kind: 'allReduce',
        algorithm: 'ring',
        step,
        peer: (rank - 1 + n) % n,
        bytes: chunkElements(elements, n, chunk) * 4,
        start: step,
        end: step + 1,
        label: phaseOf(step, n),
      });
    }
  }
  return events;
}

/** What each rank holds: for every rank and chunk, the bitmask of ranks whose input has been summed into it. */
export type RingState = number[][];

export function initialRingState(n: number): RingState {
  return Array.from({ length: n }, (_, rank) => Array.from({ length: n }, () => 1 << rank));
}

/** Apply one step of events: reduce-scatter adds the neighbour's partial chunk, all-gather overwrites with it. */
export function applyRingStep(
  state: RingState,
  events: readonly RingTraceEvent[],
  n: number,
): RingState {
  const next = state.map((row) => row.slice());
  for (const e of events) {
    if (e.step === undefined || e.peer === undefined) continue;
    const c = chunkReceived(e.rank, e.step, n);
    const incoming = state[e.peer]![c]!; // everyone sends what it held before the step
    next[e.rank]![c] =
      phaseOf(e.step, n) === 'reduce-scatter' ? next[e.rank]![c]! | incoming : incoming;
  }
  return next;
}

/** States before step 0, after step 0, …, after the last step: 2(n−1)+1 frames. */
export function ringFrames(n: number, events: readonly RingTraceEvent[]): RingState[] {
  const steps = 2 * (n - 1);
  const frames = [initialRingState(n)];
  for (let s = 0; s < steps; s++)
    frames.push(
      applyRingStep(
        frames[s]!,
        events.filter((e) => e.step === s),
        n,
      ),
    );
  return frames;
}

export function popcount(mask: number): number {
  let c = 0;
  for (let m = mask; m; m &= m - 1) c++;
  return c;
}

/** The ranks whose input a bitmask holds, e.g. "0+1+3". */
export function contributors(mask: number, n: number): string {
  return Array.from({ length: n }, (_, r) => r)
    .filter((r) => mask & (1 << r))
    .join('+');
}
