// Unequal shards: rank r holds 2(r + 1) rows. Averaging the per-rank mean gradients is then wrong;
// weighting each rank's gradient by |B_r| / |B| before summing is exact.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize,
  r = dist.rank,
  d = 5,
  h = 8;
const sizes = Array.from({ length: n }, (_, k) => 2 * (k + 1));
const total = sizes.reduce((a, b) => a + b, 0);
const offset = sizes.slice(0, r).reduce((a, b) => a + b, 0);

const X = tf.randomNormal([total, d], 0, 1, 'float32', 21);
const Y = tf.randomNormal([total, 1], 0, 1, 'float32', 22);
const W1 = tf.randomNormal([d, h], 0, 0.6, 'float32', 23);
const W2 = tf.randomNormal([h, 1], 0, 0.6, 'float32', 24);
// Gradient of the mean squared error over the given rows, for both weight matrices, flattened into one vector.
const gradOf = (x: tf.Tensor, y: tf.Tensor) => {
  const g = tf.grads(
    (a: tf.Tensor, b: tf.Tensor) =>
      tf.losses.meanSquaredError(y, tf.relu(x.matMul(a)).matMul(b)) as tf.Scalar,
  )([W1, W2]);
  return tf.concat(g.map((t) => t.reshape([-1])));
};

const mine = gradOf(X.slice([offset, 0], [sizes[r]!, d]), Y.slice([offset, 0], [sizes[r]!, 1]));
const plain = await dist.allReduce(mine, { op: 'avg' }); // all_reduce(SUM) / world_size
const weighted = await dist.allReduce(mine.mul(sizes[r]! / total), { op: 'sum' }); // Σ |B_r|/|B| · g_r
const full = gradOf(X, Y); // one device, every row

const err = async (g: tf.Tensor) => (await g.sub(full).abs().max().data())[0]!;
const [plainErr, weightedErr] = [await err(plain), await err(weighted)];
if (r === 0) {
  console.log(`shard sizes ${sizes.join('/')} of ${total} rows`);
  console.log(`plain average is off by ${plainErr.toExponential(2)} (max over entries)`);
  console.log(`weighted sum is off by ${weightedErr.toExponential(2)}`);
}
console.log(
  `rank ${r}: weighted all-reduce matches full batch: ${weightedErr < 1e-5}, plain average does: ${plainErr < 1e-5}`,
);
