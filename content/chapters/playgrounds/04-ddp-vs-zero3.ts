// DDP versus ZeRO-3 in virtual time: the same model and batch, charged as a 7B-parameter model.
// DDP all-reduces the gradients once per step; ZeRO-3 all-gathers every layer's parameters in
// forward and again in backward, and reduce-scatters the gradients: 1.5× the bytes on the wire.
import * as tf from '@tensorflow/tfjs';
import { dist, DDP, ZeRO, mlp, SGD } from 'ranks';

const widths = [64, 128, 128, 128, 64],
  rows = 8,
  steps = 2,
  tokensPerGpu = 4096;
const x = tf.randomNormal([rows, widths[0]!], 0, 1, 'float32', 1 + dist.rank);
const y = tf.randomNormal([rows, widths.at(-1)!], 0, 1, 'float32', 100 + dist.rank);
const chargeAs = { params: 7e9, tokensPerStep: tokensPerGpu * dist.worldSize };
/** Seconds on the run's clock: the cluster's virtual time, or this machine's. */
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;

async function stepSeconds(kind: 'DDP' | 'ZeRO-3'): Promise<number> {
  const opts = { optimizer: new SGD({ lr: 0.01 }), chargeAs };
  const model = mlp(widths, { seed: 1 });
  const trainer =
    kind === 'DDP' ? await DDP(model, opts) : await ZeRO(model, { ...opts, stage: 3 });
  await trainer.trainStep(x, y); // DDP rebuilds its buckets after the first step
  const t = await clock();
  for (let s = 0; s < steps; s++) await trainer.trainStep(x, y);
  return ((await clock()) - t) / steps;
}

const ddp = await stepSeconds('DDP');
const zero3 = await stepSeconds('ZeRO-3');
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
console.log(`DDP step ${ms(ddp)}, ZeRO-3 step ${ms(zero3)}: ${(zero3 / ddp).toFixed(2)}× as long`);
console.log(`ZeRO-3's step is longer: ${zero3 > ddp}`);
