/**
 * Completes a collective in virtual time: every member has published its arrival (a Float64 next to
 * its call descriptor), so each computes the same end = latest arrival + the model's duration.
 */
import type { CollectiveRun } from './collective-run.ts';
import type { IssuedCall, RankSimulation } from './rank-simulation.ts';

/** e.g. "4.19 MB": how a span names the bytes it moved. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${u === 0 ? v : v.toPrecision(3)} ${units[u]}`;
}

export function virtualTimeoutMessage(
  rank: number,
  place: string,
  timeout: number,
  at: number,
  missing: readonly number[],
): string {
  const who = `rank${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`;
  return `rank ${rank}: ${place} timed out after ${timeout} s of virtual time (at ${at.toFixed(3)} s): ${who} never arrived (a collective timeout, as NCCL's watchdog reports it)`;
}

export async function settleVirtual(
  run: CollectiveRun,
  sim: RankSimulation,
  issued: IssuedCall,
): Promise<void> {
  const e = run.engine;
  const members = run.group.members;
  // Each member's first step in this call comes after it published its arrival.
  await run.waitEach(run.group, run.base + 1);
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
