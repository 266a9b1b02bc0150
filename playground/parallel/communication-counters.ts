import type { Dist } from '../collectives/dist-api.ts';
import { resolveDist } from './resolve-dist.ts';

/** Bytes this rank has sent so far, by collective kind ('allReduce', 'reduceScatter', …). */
export type CommBytes = Record<string, number>;

function counting(dist: Dist): Dist {
  if (typeof (dist as Partial<Dist>).commStats !== 'function')
    throw new Error(
      "commBytes: this dist does not count bytes (use the rank's own dist from 'ranks')",
    );
  return dist;
}

/**
 * The runtime's own counters of bytes sent, read from `dist.commStats()`: what the collectives
 * actually moved, not a formula.
 * @example const before = commBytes(); await ddp.trainStep(x, y); console.log(commBytesSince(before));
 */
export function commBytes(dist?: Dist): CommBytes {
  const stats = counting(resolveDist(dist)).commStats();
  return Object.fromEntries(Object.entries(stats).map(([kind, s]) => [kind, s!.sent]));
}

/** Bytes sent by kind since `before` (a {@link commBytes} reading); kinds that moved nothing are left out. */
export function commBytesSince(before: CommBytes, dist?: Dist): CommBytes {
  const now = commBytes(dist);
  const out: CommBytes = {};
  for (const [kind, sent] of Object.entries(now)) {
    const delta = sent - (before[kind] ?? 0);
    if (delta > 0) out[kind] = delta;
  }
  return out;
}

/** Sum of every kind in a {@link CommBytes} reading. */
export function totalBytes(bytes: CommBytes): number {
  return Object.values(bytes).reduce((a, b) => a + b, 0);
}
