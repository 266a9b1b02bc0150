// Exercise 3: time forward, backward and the gradient all-reduce of a small MLP, and compare the
// all-reduce with the backward pass, the only phase DDP can hide it behind. On a simulated cluster
// the clock is virtual and each step is charged as a 7B-parameter model; on this laptop it is real.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const widths = [256, 512, 512, 10],
  batch = 32,
  steps = 4;
const layers = widths
  .slice(1)
  .map((out, i) => tf.variable(tf.randomNormal([widths[i]!, out], 0, 0.05, 'float32', 7 + i)));
const x = tf.randomNormal([batch, widths[0]!], 0, 1, 'float32', 100 + dist.rank);
const labels = tf.oneHot(
  tf.tensor1d(
    Array.from({ length: batch }, (_, i) => (i + dist.rank) % 10),
    'int32',
  ),
  10,
);
const params = layers.reduce((sum, w) => sum + w.size, 0);
const tokensPerGpu = 4096;
// Kernels and gradient bytes scale up to the charged model (nothing happens in a real-time run).
dist.simulation?.chargeAs(
  { params: 7e9, tokensPerStep: tokensPerGpu * dist.worldSize },
  { params, tokensPerStep: batch * dist.worldSize },
);
/** Milliseconds on the run's clock: the cluster's virtual time, or this machine's. */
const clock = async () =>
  dist.simulation ? (await dist.simulation.now()) * 1000 : performance.now();

const forward = () =>
  layers.reduce(
    (h, w, i) => (i < layers.length - 1 ? tf.relu(h.matMul(w)) : h.matMul(w)),
    x as tf.Tensor,
  );
const loss = () => tf.losses.softmaxCrossEntropy(labels, forward()) as tf.Scalar;

const totals = { forward: 0, backward: 0, waiting: 0, allReduce: 0 };
for (let step = 0; step < steps; step++) {
  await dist.barrier();
  let t = await clock();
  const out = forward();
  await out.data();
  out.dispose(); // .data() waits for the kernels to finish
  const tForward = (await clock()) - t;
  t = await clock();
  // tf.variableGrads runs the forward again before the backward. PyTorch keeps the forward's activations
  // instead, so on a simulated cluster that second forward is left uncharged: forward is charged once.
  const sim = dist.simulation;
  const { grads } = tf.variableGrads(() => (sim ? sim.uncharged(loss) : loss()));
  await Promise.all(Object.values(grads).map((g) => g.data()));
  const tBackward = Math.max(0, (await clock()) - t - (sim ? 0 : tForward));
  // Ranks finish backward at different times. Wait for the slowest here, so the timer below measures
  // the all-reduce itself and not a rank idling until its peers arrive.
  t = await clock();
  await dist.barrier();
  const tWaiting = (await clock()) - t;
  t = await clock();
  const reduced = await Promise.all(
    Object.values(grads).map((g) => dist.allReduce(g, { op: 'avg' })),
  );
  const tAllReduce = (await clock()) - t;
  if (step > 0) {
    totals.forward += tForward;
    totals.backward += tBackward;
    totals.waiting += tWaiting;
    totals.allReduce += tAllReduce;
  } // step 0 warms up
  [...Object.values(grads), ...reduced].forEach((g) => g.dispose());
  await dist.simulation?.endStep();
}
const n = steps - 1,
  f = totals.forward / n,
  b = totals.backward / n,
  w = totals.waiting / n,
  c = totals.allReduce / n;
console.log(
  `rank ${dist.rank}: forward ${f.toFixed(2)} ms, backward ${b.toFixed(2)} ms, all-reduce ${c.toFixed(2)} ms (after a barrier; ${w.toFixed(2)} ms waiting for slower ranks not counted)`,
);
const ratio = c / b;
console.log(
  `all-reduce/backward ratio: ${ratio.toFixed(2)}: ${ratio < 1 ? 'overlap could hide the all-reduce behind backward' : 'the all-reduce outlasts backward, so overlap cannot hide it all'}`,
);
