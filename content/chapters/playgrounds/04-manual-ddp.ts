// Exercise 1: data parallelism by hand. Broadcast rank 0's weights, all-reduce the gradients,
// and check that 4 ranks reach the same weights as one device training on the whole batch.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const features = 8,
  rowsPerRank = 4,
  steps = 5,
  lr = 0.1;
const rows = rowsPerRank * dist.worldSize;

// A deterministic dataset every rank can rebuild: a small linear congruential generator.
let seed = 12345;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5;
const X = tf.tensor2d(Array.from({ length: rows * features }, rand), [rows, features]);
const y = tf.tensor2d(Array.from({ length: rows }, rand), [rows, 1]);

// Each rank starts from different weights on purpose: the broadcast is what makes them equal.
seed = 1000 + dist.rank;
const w: tf.Variable = tf.variable(
  tf.tensor2d(Array.from({ length: features }, rand), [features, 1]),
);
const init = await dist.broadcast(w, { src: 0 });
w.assign(init);
const w0 = init.clone();

const mse = (xb: tf.Tensor, yb: tf.Tensor, weights: tf.Tensor) =>
  tf.losses.meanSquaredError(yb, xb.matMul(weights)) as tf.Scalar;
const myX = X.slice([dist.rank * rowsPerRank, 0], [rowsPerRank, features]);
const myY = y.slice([dist.rank * rowsPerRank, 0], [rowsPerRank, 1]);

for (let step = 0; step < steps; step++) {
  const grad = tf.grad((weights: tf.Tensor) => mse(myX, myY, weights))(w);
  const avg = await dist.allReduce(grad, { op: 'avg' }); // equal shards: the mean of shard means is exact
  w.assign(w.sub(avg.mul(lr)));
  grad.dispose();
  avg.dispose();
}

// The single-device reference: the same 5 steps on the full batch, computed locally.
let ref = w0;
for (let step = 0; step < steps; step++) {
  const g = tf.grad((weights: tf.Tensor) => mse(X, y, weights))(ref);
  ref = ref.sub(g.mul(lr));
}
const diff = (await w.sub(ref).abs().max().data())[0]!;
console.log(`rank ${dist.rank}: max |w_ddp - w_single| = ${diff.toExponential(2)}`);
console.log(`matches single device: ${diff < 1e-5}`);
