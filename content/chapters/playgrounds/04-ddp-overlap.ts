// DDP with and without overlap, in virtual time on a simulated cluster: the same model and batch,
// gradients all-reduced in buckets during backward (overlap on) or all after it (overlap off).
// Each step is charged as Llama 2 7B: its 291 parameter tensors are cut into buckets exactly as PyTorch
// cuts them (25 MiB each after a 1 MiB first one), while this small model does the arithmetic.
// Pick another cluster or tokens per GPU and rerun.
import * as tf from '@tensorflow/tfjs';
import { dist, DDP, mlp, SGD } from 'ranks';

const widths = [64, 128, 128, 128, 128, 64],
  rows = 8,
  steps = 3,
  tokensPerGpu = 1024;
const x = tf.randomNormal([rows, widths[0]!], 0, 1, 'float32', 1 + dist.rank);
const y = tf.randomNormal([rows, widths.at(-1)!], 0, 1, 'float32', 100 + dist.rank);
const chargeAs = { model: 'llama-2-7b', tokensPerStep: tokensPerGpu * dist.worldSize };
/** Seconds on the run's clock: the cluster's virtual time, or this machine's. */
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
/** A share as the step report prints it: one decimal below 10 %. */
const pct = (x: number) => `${(100 * x).toFixed(x < 0.1 ? 1 : 0)} %`;

interface Measured {
  step: number;
  compute: number;
  exposed: number | null;
  comm: number | null;
  loss: number;
}

/** Mean step time and exposed communication, forward + backward alone (noSync: no all-reduce), the last loss. */
async function measure(overlap: boolean): Promise<Measured> {
  const name = `overlap ${overlap ? 'on' : 'off'}`;
  const ddp = await DDP(mlp(widths, { seed: 1 }), {
    optimizer: new SGD({ lr: 0.01 }),
    overlap,
    chargeAs, // PyTorch's default buckets: bucketCapMB 25
  });
  // The first step runs one bucket; DDP then rebuilds them in gradient-arrival order.
  dist.simulation?.configuration(`${name}, first step`);
  await ddp.trainStep(x, y);
  dist.simulation?.configuration(name);
  let t = await clock(),
    loss = 0,
    exposed = 0,
    comm = 0;
  for (let s = 0; s < steps; s++) {
    loss = await ddp.trainStep(x, y);
    const r = dist.simulation?.lastStep();
    exposed += r?.exposedCommSeconds ?? 0;
    comm += r?.commSeconds ?? 0;
  }
  const step = ((await clock()) - t) / steps;
  dist.simulation?.configuration(`${name}, noSync`);
  t = await clock();
  await ddp.noSync(() => ddp.backward(x, y));
  const compute = (await clock()) - t;
  await dist.simulation?.endStep(); // its own step in the report, not part of the next one
  const simulated = dist.simulation !== null;
  return {
    step,
    compute,
    exposed: simulated ? exposed / steps : null,
    comm: simulated ? comm / steps : null,
    loss,
  };
}

const off = await measure(false);
const on = await measure(true);
const share = (m: Measured) =>
  m.exposed === null || !m.comm
    ? ''
    : `, exposed communication ${ms(m.exposed)} of ${ms(m.comm)} (${pct(m.exposed / m.comm)})`;
if (dist.rank === 0) {
  console.log(
    dist.simulation
      ? 'times: virtual, on the simulated cluster'
      : 'times: wall clock, measured on this machine',
  );
  console.log(`forward + backward alone (noSync): ${ms(on.compute)}`);
  console.log(`overlap off: step ${ms(off.step)}${share(off)}`);
  console.log(`overlap on:  step ${ms(on.step)}${share(on)}`);
}
// The step report under the output splits each step into compute and exposed communication.
console.log(`overlap saves ${ms(off.step - on.step)} per step`);
console.log(`overlap shortens the step: ${on.step < off.step}`);
// Overlap changes when the bytes move, not what they add up to: the same training either way.
console.log(
  `rank ${dist.rank}: loss at step ${steps + 1} ${off.loss.toFixed(4)} with overlap off, ${on.loss.toFixed(4)} with overlap on`,
);
