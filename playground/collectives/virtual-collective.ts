/**
 * Completes a collective in virtual time: every member has published its arrival (a Float64 next to
 * its call descriptor), so each computes the same end = latest arrival + the model's duration.
 */
import type { CollectiveRun } from './collective-run.ts';
import type { IssuedCall, RankSimulation } from '../simulation/rank-simulation.ts';
import { formatBytes, virtualTimeoutMessage } from '../simulation/virtual-call-text.ts';

export async function settleVirtual(
  run: CollectiveRun,
  sim: RankSimulation,
  issued: IssuedCall,
): Promise<void> {
  const e = run.engine;
  const members = run.group.members;
  // Each member's first step in this call comes after it published its arrival.
  for (const m of members) {
    if (m === e.rank) continue;
    const w = run.waitOn(run.group, m, run.base + 1);
    if (w) await w;
  }
  const mine = run.virtualArrival;
  const arrivals = members.map((m) =>
    m === e.rank ? mine : e.readArrival(run.group.slot, m, run.seq),
  );
  const latest = Math.max(...arrivals);
  if (latest - mine > sim.timeoutSeconds) {
    const late = members.filter((_, i) => arrivals[i]! > mine + sim.timeoutSeconds);
    e.fail(
      virtualTimeoutMessage(e.rank, run.place, sim.timeoutSeconds, mine + sim.timeoutSeconds, late),
    );
  }
  const { kind, length } = run.desc;
  const prediction = sim.collectivePrediction(kind, length, members, issued);
  const charged = issued.charged;
  const bytes = charged
    ? charged.bytes
    : sim.modelBytes(kind, length, members.length, issued.byteScale);
  const name = charged
    ? charged.name
    : kind === 'barrier'
      ? 'barrier'
      : `${kind} ${formatBytes(bytes)}`;
  sim.complete(
    issued.work,
    mine,
    latest + prediction.seconds,
    prediction,
    name,
    bytes,
    charged?.index,
    latest > mine ? members.filter((_, i) => arrivals[i] === latest) : [],
  );
}
