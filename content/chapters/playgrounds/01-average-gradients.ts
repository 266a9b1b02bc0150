// Four ranks, one linear model y = x·w, one batch split four ways.
// Each rank computes the gradient of the mean squared error on its own shard,
// then the ranks average their gradients with one all-reduce.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const batch = 8; // examples in the global batch
const features = 3;

// Every rank builds the same data and weights from the same formula, as if loaded from disk.
const x = tf.tensor2d(
  Array.from({ length: batch * features }, (_, i) => ((i * 7) % 11) / 10 - 0.5),
  [batch, features],
);
const y = tf.tensor2d(
  Array.from({ length: batch }, (_, i) => (i % 3) - 1),
  [batch, 1],
);
const w = tf.tensor2d([[0.1], [-0.2], [0.3]]);

// Mean squared error of a linear model, and its gradient with respect to w.
const mseGrad = (xs: tf.Tensor2D, ys: tf.Tensor2D) =>
  tf.grad((weights: tf.Tensor) =>
    tf.losses.meanSquaredError(ys, xs.matMul(weights as tf.Tensor2D)),
  )(w);

// This rank's shard: rows [start, start + rows). (The split is even when the world size divides 8.)
const rows = batch / dist.worldSize;
if (!Number.isInteger(rows))
  throw new Error(`pick a world size that divides the batch of ${batch}`);
const start = dist.rank * rows;
const localGrad = mseGrad(x.slice([start, 0], [rows, features]), y.slice([start, 0], [rows, 1]));
console.log(
  `rows ${start}..${start + rows - 1}, local gradient`,
  Array.from(await localGrad.data())
    .map((v) => v.toFixed(4))
    .join(' '),
);

// The one communication of the step: every rank ends up with the average of all local gradients.
const averaged = await dist.allReduce(localGrad, { op: 'avg' });
const avg = Array.from(await averaged.data());
console.log('averaged gradient', avg.map((v) => v.toFixed(4)).join(' '));

// Check against one device computing the gradient of the whole batch.
const full = Array.from(await mseGrad(x, y).data());
const maxDiff = Math.max(...full.map((v, i) => Math.abs(v - avg[i]!)));
console.log(`matches the full-batch gradient: ${maxDiff < 1e-6}`);
