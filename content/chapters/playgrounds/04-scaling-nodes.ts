// Weak scaling from 1 GPU to the whole cluster, in virtual time: the first k ranks train with a fixed
// batch per GPU and all-reduce their gradients in a group of k (after backward, no overlap). Groups
// that span two nodes all-reduce over the network instead of NVLink. Charged as a 7B model.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const d = 256,
  h = 512,
  rows = 16,
  steps = 2,
  tokensPerGpu = 4096;
const X = tf.randomNormal([rows, d], 0, 1, 'float32', 1 + dist.rank);
const Y = tf.randomNormal([rows, 1], 0, 1, 'float32', 100 + dist.rank);
const W1 = tf.variable(tf.randomNormal([d, h], 0, 0.05, 'float32', 5));
const W2 = tf.variable(tf.randomNormal([h, 1], 0, 0.05, 'float32', 6));
// Per GPU the charge is the same at every k: 7B parameters, tokensPerGpu tokens.
dist.simulation?.chargeAs(
  { params: 7e9, tokensPerStep: tokensPerGpu * dist.worldSize },
  { params: W1.size + W2.size, tokensPerStep: rows * dist.worldSize },
);
const gpusPerNode = dist.simulation?.cluster.gpusPerNode ?? dist.worldSize;
/** Seconds on the run's clock: the cluster's virtual time, or this machine's. */
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;

const sizes = [1, 2, 4, 8, 16].filter((k) => k < dist.worldSize).concat(dist.worldSize);
const stepSeconds: number[] = [],
  gradNorms: number[] = [];
for (const k of sizes) {
  // Every rank makes every group, in the same order, as torch.distributed.new_group requires.
  const group = dist.newGroup(Array.from({ length: k }, (_, i) => i));
  let seconds = 0,
    lastAvg: tf.Tensor[] = [];
  if (group.rank >= 0) {
    const t0 = await clock();
    for (let s = 0; s < steps; s++) {
      const { grads } = tf.variableGrads(
        () => tf.losses.meanSquaredError(Y, tf.relu(X.matMul(W1)).matMul(W2)) as tf.Scalar,
        [W1, W2],
      );
      const avg = await Promise.all(
        [W1, W2].map((w) => dist.allReduce(grads[w.name]!, { op: 'avg', group })),
      );
      if (s === steps - 1) lastAvg = avg.map((g) => g.clone());
      tf.dispose([...avg, ...Object.values(grads)]);
    }
    seconds = ((await clock()) - t0) / steps;
  }
  stepSeconds.push(seconds);
  // The group's averaged gradient, read after the timing: the numbers this weak scaling moves.
  const values = await Promise.all(lastAvg.map((g) => g.data<'float32'>()));
  gradNorms.push(Math.sqrt(values.reduce((n, v) => v.reduce((m, x) => m + x * x, n), 0)));
  tf.dispose(lastAvg);
  await dist.barrier(); // the next size starts together
}
// Rank 0 was in every group: its times are the ones to report, on every rank.
const times = await (await dist.broadcast(tf.tensor1d(stepSeconds), { src: 0 })).data();
const efficiency = (i: number) => times[0]! / times[i]!;
// In real time the charge does not apply: throughput counts this program's own rows.
const [perGpu, unit] = dist.simulation ? [tokensPerGpu, 'tokens'] : [rows, 'rows'];
if (dist.rank === 0) {
  console.log(
    dist.simulation
      ? 'times: virtual, on the simulated cluster'
      : 'times: wall clock, measured on this machine',
  );
  sizes.forEach((k, i) => {
    const nodes = Math.ceil(k / gpusPerNode);
    console.log(
      `${String(k).padStart(2)} GPU${k === 1 ? ' ' : 's'} on ${nodes} node${nodes === 1 ? ' ' : 's'}: step ${(times[i]! * 1000).toFixed(1)} ms, ${Math.round((k * perGpu) / times[i]!).toLocaleString('en')} ${unit}/s, scaling efficiency ${(efficiency(i) * 100).toFixed(0)} %`,
    );
  });
  console.log(
    `norm of the averaged gradient: ${sizes.map((k, i) => `${k} GPU${k === 1 ? '' : 's'} ${gradNorms[i]!.toFixed(4)}`).join(', ')}`,
  );
}
const oneNode = sizes.filter((k) => k <= gpusPerNode).length - 1;
const last = sizes.length - 1;
console.log(
  `efficiency inside one node ${(efficiency(oneNode) * 100).toFixed(0)} %, on the whole cluster ${(efficiency(last) * 100).toFixed(0)} %`,
);
console.log(`leaving the node costs efficiency: ${efficiency(last) < efficiency(oneNode)}`);
