// Weak scaling on this machine: every rank trains on a fixed batch of its own and all-reduces the
// gradients each step. Rank 0 reports samples per second for the whole world.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const batchPerRank = 64,
  d = 128,
  h = 256,
  steps = 6;
const X = tf.randomNormal([batchPerRank, d], 0, 1, 'float32', dist.rank + 1);
const Y = tf.randomNormal([batchPerRank, 1], 0, 1, 'float32', dist.rank + 100);
const W1 = tf.variable(tf.randomNormal([d, h], 0, 0.1, 'float32', 5));
const W2 = tf.variable(tf.randomNormal([h, 1], 0, 0.1, 'float32', 6));

async function trainStep(): Promise<void> {
  const { grads } = tf.variableGrads(
    () => tf.losses.meanSquaredError(Y, tf.relu(X.matMul(W1)).matMul(W2)) as tf.Scalar,
    [W1, W2],
  );
  const flat = tf.concat([grads[W1.name]!.reshape([-1]), grads[W2.name]!.reshape([-1])]);
  const avg = await dist.allReduce(flat, { op: 'avg' });
  W1.assign(
    W1.sub(
      avg
        .slice(0, d * h)
        .reshape([d, h])
        .mul(0.01),
    ),
  );
  W2.assign(
    W2.sub(
      avg
        .slice(d * h, h)
        .reshape([h, 1])
        .mul(0.01),
    ),
  );
  tf.dispose([flat, avg, ...Object.values(grads)]);
}

await trainStep(); // warm-up: the first step compiles kernels
await dist.barrier();
const t0 = performance.now();
for (let s = 0; s < steps; s++) await trainStep();
await dist.barrier();
const seconds = (performance.now() - t0) / 1000;
const throughput = (steps * batchPerRank * dist.worldSize) / seconds;
if (dist.rank === 0)
  console.log(`throughput: ${throughput.toFixed(1)} samples/s on ${dist.worldSize} ranks`);
