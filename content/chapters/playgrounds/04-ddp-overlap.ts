// DDP with and without overlap, in virtual time on a simulated cluster: the same model and batch,
// gradients all-reduced in buckets during backward (overlap on) or all after it (overlap off).
// Each step is charged as a 7B-parameter model; pick another cluster or tokens per GPU and rerun.
import * as tf from '@tensorflow/tfjs';
import { dist, DDP, mlp, SGD } from 'ranks';

const widths = [64, 128, 128, 128, 128, 64],
  rows = 8,
  steps = 3,
  tokensPerGpu = 1024;
const x = tf.randomNormal([rows, widths[0]!], 0, 1, 'float32', 1 + dist.rank);
const y = tf.randomNormal([rows, widths.at(-1)!], 0, 1, 'float32', 100 + dist.rank);
const chargeAs = { params: 7e9, tokensPerStep: tokensPerGpu * dist.worldSize };
/** Seconds on the run's clock: the cluster's virtual time, or this machine's. */
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;

/** Mean step time, forward + backward alone (under noSync: no all-reduce at all), and the last step's loss. */
async function measure(overlap: boolean): Promise<{ step: number; compute: number; loss: number }> {
  const ddp = await DDP(mlp(widths, { seed: 1 }), {
    optimizer: new SGD({ lr: 0.01 }),
    overlap,
    chargeAs,
    // About one layer per bucket (this small model's real bytes), so buckets can launch during backward.
    bucketCapMB: 0.05,
  });
  await ddp.trainStep(x, y); // the first step rebuilds the buckets in gradient-arrival order
  let t = await clock(),
    loss = 0;
  for (let s = 0; s < steps; s++) loss = await ddp.trainStep(x, y);
  const step = ((await clock()) - t) / steps;
  t = await clock();
  await ddp.noSync(() => ddp.backward(x, y));
  const compute = (await clock()) - t;
  return { step, compute, loss };
}

const off = await measure(false);
const on = await measure(true);
if (dist.rank === 0) {
  console.log(
    dist.simulation
      ? 'times: virtual, on the simulated cluster'
      : 'times: wall clock, measured on this machine',
  );
  console.log(`forward + backward alone (noSync): ${ms(on.compute)}`);
  console.log(`overlap off: step ${ms(off.step)}`);
  console.log(`overlap on:  step ${ms(on.step)}`);
}
// The step report under the output splits each step into compute and exposed communication.
console.log(`overlap saves ${ms(off.step - on.step)} per step`);
console.log(`overlap shortens the step: ${on.step < off.step}`);
// Overlap changes when the bytes move, not what they add up to: the same training either way.
console.log(
  `rank ${dist.rank}: loss at step ${steps + 1} ${off.loss.toFixed(4)} with overlap off, ${on.loss.toFixed(4)} with overlap on`,
);
