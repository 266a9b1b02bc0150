import type * as tf from '@tensorflow/tfjs';
import type { Dist } from '../collectives/dist-api.ts';

/**
 * Overwrites each variable with `src`'s value (rank 0 by default), one broadcast per tensor in order:
 * what DDP does to parameters and buffers at construction and to buffers before each forward.
 */
export async function broadcastFromRankZero(
  dist: Dist,
  variables: readonly tf.Variable[],
  src = 0,
): Promise<void> {
  for (const v of variables) {
    const t = await dist.broadcast(v, { src });
    v.assign(t);
    t.dispose();
  }
}
