// Gradient accumulation: each rank runs k micro-batches, sums the scaled gradients locally and
// all-reduces once. The update equals one step on the whole global batch.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize, r = dist.rank, k = 3, micro = 4, d = 6;
const globalBatch = micro * n * k; // per-rank micro-batch × ranks × accumulation steps
const X = tf.randomNormal([globalBatch, d], 0, 1, 'float32', 31);
const Y = tf.randomNormal([globalBatch, 1], 0, 1, 'float32', 32);
const W = tf.randomNormal([d, 1], 0, 1, 'float32', 33);
const grad = (x: tf.Tensor, y: tf.Tensor) => tf.grad((w: tf.Tensor) => tf.losses.meanSquaredError(y, x.matMul(w)) as tf.Scalar)(W);

let accumulated = tf.zerosLike(W);
let allReduces = 0;
for (let step = 0; step < k; step++) {
  const start = (step * n + r) * micro; // micro-batch `step` of this rank
  const g = grad(X.slice([start, 0], [micro, d]), Y.slice([start, 0], [micro, 1]));
  accumulated = accumulated.add(g.div(k)); // scale by 1/k so the result is a mean, not a sum
}
const synced = await dist.allReduce(accumulated, { op: 'avg' }); allReduces++;

const reference = grad(X, Y); // one device, the whole global batch at once
const gap = (await synced.sub(reference).abs().max().data())[0]!;
console.log(`rank ${r}: ${k} micro-batches of ${micro} rows, ${allReduces} all-reduce, global batch ${globalBatch}, gap ${gap.toExponential(1)}`);
console.log(`accumulated gradient matches the full global batch: ${gap < 1e-5}`);
