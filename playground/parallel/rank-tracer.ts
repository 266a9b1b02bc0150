import type { Dist } from '../collectives/dist-api.ts';
import type { TraceEvent } from '../cluster/protocol.ts';

/** The clock and trace channel of the runtime under a rank's `dist`, as far as the parallel code needs them. */
interface TracingDist {
  collectives?: { engine?: { env?: { now?: () => number }; trace?: (e: Omit<TraceEvent, 'rank'>) => void } };
}

/** Records compute spans on the same clock as the runtime's collective trace, so the page can draw both in one timeline. */
export interface RankTracer {
  now(): number;
  /** Sends a compute span (forward, backward, optimizer) to the page's timeline; a no-op without a runtime trace channel. */
  compute(label: string, start: number, end: number): void;
}

export function rankTracer(dist: Dist): RankTracer {
  const engine = (dist as TracingDist).collectives?.engine;
  const clock = engine?.env?.now;
  const now = typeof clock === 'function' ? () => clock() : () => performance.now();
  const trace = typeof engine?.trace === 'function' ? engine.trace.bind(engine) : null;
  return {
    now,
    compute: (label, start, end) => trace?.({ kind: 'compute', label, bytes: 0, start, end }),
  };
}
