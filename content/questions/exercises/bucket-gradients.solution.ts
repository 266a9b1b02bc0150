// Reverse order, flatten into one buffer per bucket, one averaging all-reduce per bucket, then unpack.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

async function allReduceBuckets(grads: tf.Tensor[], capElements: number): Promise<tf.Tensor[]> {
  const out: tf.Tensor[] = new Array(grads.length);
  let bucket: number[] = [];
  let size = 0;
  const flush = async () => {
    const flat = tf.concat(bucket.map((i) => grads[i]!.reshape([-1])));
    const reduced = await dist.allReduce(flat, { op: 'avg' });
    const parts = tf.split(
      reduced,
      bucket.map((i) => grads[i]!.size),
    );
    bucket.forEach((i, k) => {
      out[i] = parts[k]!.reshape(grads[i]!.shape);
    });
    bucket = [];
    size = 0;
  };
  for (let i = grads.length - 1; i >= 0; i--) {
    bucket.push(i);
    size += grads[i]!.size;
    if (size >= capElements) await flush();
  }
  if (bucket.length > 0) await flush();
  return out;
}
