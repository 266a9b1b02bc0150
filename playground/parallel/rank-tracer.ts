import type { Dist } from '../collectives/dist-api.ts';
import { rankContext } from '../collectives/rank-context.ts';

/** Records compute spans on the same clock as the runtime's collective trace, so the page can draw both in one timeline. */
export interface RankTracer {
  now(): number;
  /** Sends a compute span (forward, backward, optimizer) to the page's timeline; a no-op without a runtime trace channel. */
  compute(label: string, start: number, end: number): void;
}

export function rankTracer(dist: Dist): RankTracer {
  const context = rankContext(dist);
  return {
    now: () => context.now(),
    compute: (label, start, end) => context.trace({ kind: 'compute', label, bytes: 0, start, end }),
  };
}
