// Under FSDP or ZeRO-2/3 each rank holds only a shard of the (scaled) gradients. Before the optimizer
// step, decide whether to skip it: return true on EVERY rank if ANY rank's shard holds an inf or NaN.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

async function foundInf(gradShard: tf.Tensor): Promise<boolean> {
  const local = (await tf.logicalNot(tf.isFinite(gradShard)).any().data())[0] === 1;
  // TODO: every rank must reach the same decision, whichever shard overflowed.
  return local;
}
