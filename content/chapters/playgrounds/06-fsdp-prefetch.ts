// FSDP prefetch on and off, in virtual time on a simulated cluster: the same model, data and steps,
// charged as Llama 2 7B, whose units are cut as fully_shard per block cuts them (32 blocks, then the
// root). With prefetch on, each unit issues the next unit's all-gather before it computes; with it off,
// a unit's all-gather starts only when the unit is reached.
import * as tf from '@tensorflow/tfjs';
import { dist, fullyShard, mlp, Lcg, SGD, SingleDeviceTrainer } from 'ranks';

const widths = [64, 64, 64, 64, 64, 64, 64],
  rows = 16,
  steps = 2,
  lr = 0.05,
  tokensPerGpu = 2048;
const rng = new Lcg(5); // the same batch on every rank; each rank trains on its own rows
const x = tf.tensor2d(rng.fill(rows * widths[0]!), [rows, widths[0]!]);
const y = tf.tensor2d(rng.fill(rows * widths.at(-1)!), [rows, widths.at(-1)!]);
const mine = Array.from({ length: rows }, (_, i) => i).filter(
  (i) => i % dist.worldSize === dist.rank,
);
const [xs, ys] = [tf.gather(x, mine), tf.gather(y, mine)];
const chargeAs = { model: 'llama-2-7b', tokensPerStep: tokensPerGpu * dist.worldSize };
/** Checks that are not part of the training job cost no virtual time. */
const uncharged = <T>(fn: () => Promise<T>) => dist.simulation?.uncharged(fn) ?? fn();
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;

/** Trains `steps` steps; returns the last step's time and exposed communication, and the weights. */
async function run(prefetch: boolean) {
  dist.simulation?.configuration(`prefetch ${prefetch ? 'on' : 'off'}`);
  const fsdp = await fullyShard(mlp(widths, { seed: 7 }), {
    optimizer: new SGD({ lr }),
    chargeAs,
    forwardPrefetch: prefetch ? 1 : 0,
    backwardPrefetch: prefetch ? 1 : 0,
  });
  const t0 = performance.now();
  for (let s = 0; s < steps; s++) await fsdp.trainStep(xs, ys);
  const wall = (performance.now() - t0) / 1000 / steps;
  const report = dist.simulation?.lastStep() ?? null;
  return {
    step: report ? report.end - report.start : wall,
    exposed: report?.exposedCommSeconds ?? null,
    weights: await uncharged(() => fsdp.snapshot()),
  };
}

const on = await run(true);
const off = await run(false);
if (!dist.simulation)
  console.log('real time on this machine: pick a cluster to see what prefetch hides');
const exposed = (e: number | null) => (e === null ? 'not measured' : ms(e));
console.log(`prefetch on:  step ${ms(on.step)}, exposed communication ${exposed(on.exposed)}`);
console.log(`prefetch off: step ${ms(off.step)}, exposed communication ${exposed(off.exposed)}`);
if (on.exposed !== null && off.exposed !== null) {
  console.log(`prefetch hides ${ms(off.exposed - on.exposed)} of communication per step`);
  console.log(`prefetch lowers exposed communication: ${on.exposed < off.exposed}`);
}

// Prefetch moves when the all-gathers start, not what they carry: the weights are the same bits.
const names = Object.keys(on.weights);
const same = names.every((k) => on.weights[k]!.every((v, i) => v === off.weights[k]![i]));
console.log(`weights identical with prefetch on and off: ${same}`);

// And both equal one device training on all the rows.
const ref = await uncharged(async () => {
  const single = mlp(widths, { seed: 7 });
  const trainer = new SingleDeviceTrainer(single, new SGD({ lr }));
  for (let s = 0; s < steps; s++) await trainer.trainStep(x, y);
  return single.snapshot();
});
const diff = Math.max(
  ...names.map((k) => Math.max(...ref[k]!.map((v, i) => Math.abs(v - on.weights[k]![i]!)))),
);
console.log(`matches single-device training: ${diff < 1e-5}`);
