/** Picks a rank's one clock at run start: the simulated cluster's when the run has one, else real time. */
import type { ResolvedCluster } from './cluster-options.ts';
import { REAL_TIME_CLOCK, type RankClock } from './rank-clock.ts';
import { RankSimulation, type SimulationSinks } from './rank-simulation.ts';

export type { RankSimulation, SimulationSinks } from './rank-simulation.ts';
export type { ResolvedCluster } from './cluster-options.ts';

/**
 * `clock` is what the process group times every call with; `sim` is the same clock when it is simulated
 * (the training wrappers and `dist.simulation` use its charge-as and step API), else null.
 */
export function startRankClock(
  rank: number,
  simulation: { cluster: ResolvedCluster; sinks: SimulationSinks } | undefined,
): { clock: RankClock; sim: RankSimulation | null } {
  if (!simulation) return { clock: REAL_TIME_CLOCK, sim: null };
  const sim = new RankSimulation(rank, simulation.cluster, simulation.sinks);
  return { clock: sim, sim };
}
