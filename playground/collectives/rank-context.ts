import type { TraceEvent } from '../contract/protocol.ts';
import type { Dist } from './dist-api.ts';

/** A rank's `dist` with the clock and trace channel of the runtime underneath it: the one way code above reaches them. */
export interface RankContext {
  readonly dist: Dist;
  /** Milliseconds since the run started, on the clock the collectives' trace uses. */
  now(): number;
  /** Adds a span (e.g. compute) to this rank's trace, next to the collectives'. */
  trace(e: Omit<TraceEvent, 'rank'>): void;
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
 * The context of `dist` (a dist made elsewhere gets the page clock and no trace), or of this worker's own
 * rank when none is given.
 */
export function rankContext(dist?: Dist): RankContext {
  if (dist) return contexts.get(dist) ?? { dist, now: () => performance.now(), trace: () => {} };
  if (!current)
    throw new Error(
      "dist is only available inside a rank: run the program with the playground's Run button or `npm run ranks -- run file.ts --world N`",
    );
  return current;
}
