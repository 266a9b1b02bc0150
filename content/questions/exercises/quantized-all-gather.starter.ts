// ZeRO++'s qwZ: all-gather the weights as int8, one fp32 scale per block of `block` values.
// Each rank holds `shard` (a 1-D float32 tensor whose length is a multiple of `block` and of 4).
// Return every rank's shard, dequantized and concatenated in rank order (length worldSize × shard.size),
// sending about a quarter of the bytes of a float32 all-gather. Quantize symmetrically:
// scale = max|w| / 127 per block, q = round(w / scale). dist.allGather carries float32 or int32 tensors,
// so four int8 values travel in one int32 (an Int8Array and an Int32Array can share one buffer).
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

async function quantizedAllGather(shard: tf.Tensor, block: number): Promise<tf.Tensor> {
  // TODO: this sends every value as 4 bytes. Quantize per block, pack, gather values and scales, dequantize.
  void block;
  return (await dist.allGather(shard)).reshape([-1]);
}
