// A straggler in synchronous data parallelism: the cluster runs rank 3's kernels twice as slowly.
// Every rank computes its gradient, then all-reduces it; the all-reduce cannot finish before the
// slowest rank arrives, so every rank's step takes as long as the straggler's.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const d = 256,
  h = 512,
  rows = 32,
  steps = 3;
const X = tf.randomNormal([rows, d], 0, 1, 'float32', 1 + dist.rank);
const Y = tf.randomNormal([rows, 1], 0, 1, 'float32', 100 + dist.rank);
const W1 = tf.variable(tf.randomNormal([d, h], 0, 0.05, 'float32', 5));
const W2 = tf.variable(tf.randomNormal([h, 1], 0, 0.05, 'float32', 6));
// Charged as a 1.3B-parameter model on 2,048 tokens per GPU (nothing happens in a real-time run).
dist.simulation?.chargeAs(
  { params: 1.3e9, tokensPerStep: 2048 * dist.worldSize },
  { params: W1.size + W2.size, tokensPerStep: rows * dist.worldSize },
);
/** Seconds on the run's clock: the cluster's virtual time, or this machine's. */
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
if (dist.rank === 0)
  console.log(
    dist.simulation
      ? 'times: virtual, on the simulated cluster'
      : 'times: wall clock, measured on this machine',
  );

let computing = 0,
  waiting = 0,
  peers = 0,
  stepping = 0;
const losses: number[] = [];
for (let s = 0; s < steps; s++) {
  const t0 = await clock();
  const { value, grads } = tf.variableGrads(
    () => tf.losses.meanSquaredError(Y, tf.relu(X.matMul(W1)).matMul(W2)) as tf.Scalar,
    [W1, W2],
  );
  await Promise.all([grads[W1.name]!.data(), grads[W2.name]!.data()]);
  const t1 = await clock();
  const avg = await Promise.all([W1, W2].map((w) => dist.allReduce(grads[w.name]!, { op: 'avg' })));
  W1.assign(W1.sub(avg[0]!.mul(0.01)));
  W2.assign(W2.sub(avg[1]!.mul(0.01)));
  tf.dispose([...avg, ...Object.values(grads)]);
  const t2 = await clock();
  await dist.simulation?.endStep();
  losses.push((await value.data())[0]!); // read after the step's clock: this rank's loss on its own rows
  value.dispose();
  // Simulated: the step report's own figures, so this line and the report agree to the digit.
  const r = dist.simulation?.lastStep();
  computing += r ? r.computeSeconds : t1 - t0;
  waiting += r ? r.exposedCommSeconds + (r.peerWaitSeconds ?? 0) : t2 - t1;
  peers += r?.peerWaitSeconds ?? 0;
  stepping += r ? r.end - r.start : t2 - t0;
}
const compute = computing / steps,
  step = stepping / steps;
console.log(
  `rank ${dist.rank}: computes ${ms(compute)} per step, then waits ${ms(waiting / steps)} in the all-reduce` +
    (dist.simulation ? ` (${ms(peers / steps)} of it for slower ranks)` : '') +
    `; step ${ms(step)}`,
);
// Every rank learns the slowest and fastest compute times (tiny all-reduces, after the timing).
const across = async (op: 'max' | 'min') =>
  (await (await dist.allReduce(tf.scalar(compute), { op })).data())[0]!;
const slowest = await across('max'),
  fastest = await across('min');
console.log(`the slowest rank computes ${(slowest / fastest).toFixed(2)}× as long as the fastest`);
console.log(`every step lasts at least the slowest rank's compute: ${step >= slowest * 0.999}`);
console.log(
  `rank ${dist.rank}: loss ${losses.map((l) => l.toFixed(4)).join(', ')} over ${steps} steps`,
);
