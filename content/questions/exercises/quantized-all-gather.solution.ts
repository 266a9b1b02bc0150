// ZeRO++'s qwZ: all-gather the weights as int8, one fp32 scale per block of `block` values.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

async function quantizedAllGather(shard: tf.Tensor, block: number): Promise<tf.Tensor> {
  const w = shard.reshape([-1, block]);
  const scale = w.abs().max(1, true).div(127); // one fp32 scale per block
  const q = await w.div(scale).round().clipByValue(-127, 127).data();
  const packed = new Int8Array(q.length);
  packed.set(q); // four int8 values per int32 below
  const values = await dist.allGather(tf.tensor1d(new Int32Array(packed.buffer), 'int32'));
  const scales = await dist.allGather(scale.reshape([-1]));
  const all = Float32Array.from(new Int8Array((await values.data()).slice().buffer));
  return tf
    .tensor2d(all, [all.length / block, block])
    .mul(scales.reshape([-1, 1]))
    .reshape([-1]);
}
