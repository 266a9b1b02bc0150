// ‖g‖² is the sum of the shards' ‖g_r‖²: all-reduce one number, then every rank scales by the same factor.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

async function clipShard(
  shard: tf.Tensor,
  maxNorm: number,
): Promise<{ clipped: tf.Tensor; totalNorm: number }> {
  const sumSq = await dist.allReduce(shard.square().sum(), { op: 'sum' });
  const totalNorm = Math.sqrt((await sumSq.data())[0]!);
  return { clipped: shard.mul(Math.min(1, maxNorm / (totalNorm + 1e-6))), totalNorm };
}
