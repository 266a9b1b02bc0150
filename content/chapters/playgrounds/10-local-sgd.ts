// Synchronize every step, or every H steps. The same 48 SGD steps on four ranks whose data differ
// (each rank's targets come from its own shifted teacher), three ways: all-reduce the gradient every
// step; local SGD (average the weights every H steps); DiLoCo (average the weights' change every H
// steps and apply it with an outer Nesterov-momentum step). Each rank prints the bytes it sent, the
// run's time and the loss on all ranks' data.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const N = dist.worldSize,
  d = 32,
  out = 8,
  rows = 64,
  steps = 48,
  H = 8,
  lr = 0.05,
  outerLr = 0.7,
  momentum = 0.9;
const X = tf.randomNormal([rows, d], 0, 1, 'float32', 50 + dist.rank);
const teacher = tf
  .randomNormal([d, out], 0, 1, 'float32', 60)
  .add(tf.randomNormal([d, out], 0, 0.5, 'float32', 70 + dist.rank));
const Y = X.matMul(teacher);
const W0 = tf.zeros([d, out]);
const gradient = (W: tf.Tensor) =>
  tf.tidy(() =>
    X.transpose()
      .matMul(X.matMul(W).sub(Y))
      .mul(2 / (rows * out)),
  );
const globalLoss = async (W: tf.Tensor) => {
  const local = tf.tidy(() => X.matMul(W).sub(Y).square().mean());
  return (await (await dist.allReduce(local, { op: 'avg' })).data())[0]!;
};
// Charge each step as a 1e9-parameter model on 16,384 tokens per rank (bytes as sent); real time: no charge.
dist.simulation?.chargeAs(
  { params: 1e9, tokensPerStep: 16_384 * N, bytesPerElement: 4 },
  { params: d * out, tokensPerStep: rows * N },
);
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;
const sent = () => dist.commStats().allReduce?.sent ?? 0;
const ring = { op: 'avg', algorithm: 'ring' } as const;

async function train(mode: 'every step' | 'local SGD' | 'DiLoCo') {
  const [b, t] = [sent(), await clock()];
  let W = W0.clone(); // this rank's weights (the inner ones, under local SGD and DiLoCo)
  let global = W0.clone(); // DiLoCo's outer weights, the same on every rank
  let velocity = tf.zerosLike(W0);
  for (let step = 1; step <= steps; step++) {
    const g = gradient(W);
    const avg = mode === 'every step' ? await dist.allReduce(g, ring) : g;
    W = tf.tidy(() => W.sub(avg.mul(lr)));
    if (mode === 'every step' || step % H !== 0) continue;
    if (mode === 'local SGD') W = await dist.allReduce(W, ring);
    else {
      // Outer gradient: how far the workers moved, averaged. Nesterov: v = μv + Δ; θ -= lr·(Δ + μv).
      const delta = await dist.allReduce(global.sub(W), ring);
      velocity = velocity.mul(momentum).add(delta);
      global = global.sub(delta.add(velocity.mul(momentum)).mul(outerLr));
      W = global.clone();
    }
  }
  return { W, bytes: sent() - b, s: (await clock()) - t };
}

const runs = [];
for (const mode of ['every step', 'local SGD', 'DiLoCo'] as const) {
  const r = await train(mode);
  runs.push({ mode, ...r, loss: await globalLoss(r.W) });
}
const [sync, local, diloco] = runs;
if (dist.rank === 0) {
  console.log(
    dist.simulation
      ? 'times: virtual, on the simulated cluster, each step charged as a 1e9-parameter model on 16,384 tokens per rank'
      : 'times: wall clock, measured on this machine',
  );
  console.log(`loss at the start: ${(await globalLoss(W0)).toFixed(3)}`);
  for (const r of runs)
    console.log(
      `${r.mode}: ${r.bytes} bytes sent by this rank, ${(r.s * 1000).toFixed(1)} ms, loss after ${steps} steps ${r.loss.toFixed(3)}`,
    );
} else await globalLoss(W0);
console.log(
  `H = ${H}: local SGD and DiLoCo send ${sync!.bytes / local!.bytes}× and ${sync!.bytes / diloco!.bytes}× fewer bytes`,
);
console.log(
  `synchronizing every ${H} steps is faster: ${local!.s < sync!.s && diloco!.s < sync!.s}`,
);
