import type { TraceEvent } from '../contract/protocol.ts';
import type { Dist, Work } from './dist-api.ts';
import { CallWork } from './call-work.ts';
import type { RankSimulation } from '../simulation/start-rank-clock.ts';

/** A rank's `dist` with the clock and trace channel of the runtime underneath it: the one way code above reaches them. */
export interface RankContext {
  readonly dist: Dist;
  /** Milliseconds since the run started, on the clock the collectives' trace uses. */
  now(): number;
  /** Adds a span (e.g. compute) to this rank's trace, next to the collectives'. */
  trace(e: Omit<TraceEvent, 'rank'>): void;
  /** Virtual time in a simulated run (the training wrappers label compute and end steps with it). */
  readonly sim?: RankSimulation | null;
  /** For a rank sharing its thread (rank/rank-host.ts): resolves once it may run again after yielding. */
  readonly resume?: () => Promise<void>;
}

/**
 * A collective's result as a thenable whose compute clock waits only when the result is first awaited
 * (or `.then` is called), not when the collective was launched: how the wrappers overlap in virtual time.
 */
export function awaitLater<T>(
  context: RankContext,
  work: Work<T>,
): PromiseLike<T> & { raw?: Promise<T> } {
  const sim = context.sim;
  if (!sim) return work.wait();
  // The dist's Work carries the call's end and its result, reached without moving the clock.
  const result = CallWork.resultOf(work);
  const end = CallWork.endOf(work);
  if (!result || !end) return work.wait();
  let waited = false;
  return {
    raw: result,
    then(onFulfilled, onRejected) {
      if (!waited) sim.waitFor(end);
      waited = true;
      return result.then(onFulfilled, onRejected);
    },
  };
}

const contexts = new WeakMap<Dist, RankContext>();
let current: RankContext | undefined;

/** Called once by joinWorld for every dist it makes. */
export function registerRankContext(context: RankContext): void {
  contexts.set(context.dist, context);
}

/** Installs this worker's rank; the rank entry calls it once before the reader's program runs. */
export function setCurrentRank(dist: Dist | undefined): void {
  current = dist ? contexts.get(dist) : undefined;
}

/**
 * How the rank running now gets its turn back after it yields to the event loop (undefined: it has the
 * thread to itself, or no rank runs here). Read it before yielding.
 */
export function currentResume(): (() => Promise<void>) | undefined {
  return current?.resume;
}

/**
 * The context of `dist` (a dist made elsewhere gets the page clock and no trace), or of this worker's own
 * rank when none is given.
 */
export function rankContext(dist?: Dist): RankContext {
  if (dist)
    return contexts.get(dist) ?? { dist, now: () => performance.now(), trace: () => {}, sim: null };
  if (!current)
    throw new Error(
      "dist is only available inside a rank: run the program with the playground's Run button or `npm run ranks -- run file.ts --world N`",
    );
  return current;
}
