/**
 * `run`'s flags for what the page's cluster embeds can ask for besides the shape (the contract's
 * SimulatedClusterOptions: slowdown, jitter, deadRank), so a playground prints the same lines from
 * the CLI as on its page: `--slowdown 3:2` is the page's `slowdown={{ 3: 2 }}`.
 */
import type { SimulatedClusterOptions } from '../contract/protocol.ts';

export type ClusterFaults = Pick<SimulatedClusterOptions, 'slowdown' | 'jitter' | 'deadRank'>;

export const FAULT_USAGE = `  --slowdown R:F[,R:F]  on --cluster: rank R computes F (≥ 1) times slower, a straggler (the page's slowdown)
  --jitter A[:seed]     on --cluster: every compute span stretched by a factor in [1, 1 + A), seeded (default 1)
  --dead-rank R:S       on --cluster: rank R stops when it begins step S (0-based); its peers time out`;

const pair = (flag: string, text: string): [string, string] => {
  const parts = text.split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1])
    throw new RangeError(`${flag} takes A:B, got '${text}'`);
  return [parts[0], parts[1]];
};
const wholeNumber = (flag: string, text: string): number => {
  if (!/^\d+$/.test(text)) throw new RangeError(`${flag}: '${text}' is not a whole number`);
  return Number(text);
};
const decimal = (flag: string, text: string): number => {
  if (!/^\d+(\.\d+)?$/.test(text)) throw new RangeError(`${flag}: '${text}' is not a number`);
  return Number(text);
};

/** Reads one fault flag into `into`; false when the flag is not one of these. Throws RangeError on a bad value. */
export function parseFaultFlag(flag: string, value: string, into: ClusterFaults): boolean {
  if (flag === '--slowdown') {
    const plan: Record<number, number> = { ...(into.slowdown ?? {}) };
    for (const item of value.split(',')) {
      const [r, f] = pair(flag, item);
      const factor = decimal(flag, f);
      if (factor < 1) throw new RangeError(`${flag}: a slowdown factor is ≥ 1, got ${f}`);
      plan[wholeNumber(flag, r)] = factor;
    }
    into.slowdown = plan;
    return true;
  }
  if (flag === '--jitter') {
    const [a, seed] = value.includes(':') ? pair(flag, value) : [value, '1'];
    const amplitude = decimal(flag, a);
    if (amplitude <= 0) throw new RangeError(`${flag}: the amplitude is > 0, got ${a}`);
    into.jitter = { amplitude, seed: wholeNumber(flag, seed) };
    return true;
  }
  if (flag === '--dead-rank') {
    const [r, s] = pair(flag, value);
    into.deadRank = { rank: wholeNumber(flag, r), atStep: wholeNumber(flag, s) };
    return true;
  }
  return false;
}

/** Checks the ranks named exist in a world of `world`; returns the options to spread into the cluster. */
export function checkFaults(faults: ClusterFaults, world: number): ClusterFaults {
  const ranks = [
    ...Object.keys(faults.slowdown ?? {}).map(Number),
    ...(faults.deadRank ? [faults.deadRank.rank] : []),
  ];
  for (const r of ranks)
    if (r >= world) throw new RangeError(`rank ${r} does not exist in a world of ${world}`);
  return faults;
}
