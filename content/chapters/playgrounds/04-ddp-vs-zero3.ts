// DDP versus ZeRO-3 in virtual time: the same model and batch, charged as Llama 2 7B (DDP's buckets
// cut from its parameter list as PyTorch cuts them).
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
const chargeAs = { model: 'llama-2-7b', tokensPerStep: tokensPerGpu * dist.worldSize };
/** Seconds on the run's clock: the cluster's virtual time, or this machine's. */
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;

/** Mean step time and the last step's loss. */
async function stepSeconds(kind: 'DDP' | 'ZeRO-3'): Promise<{ seconds: number; loss: number }> {
  const opts = { optimizer: new SGD({ lr: 0.01 }), chargeAs };
  const model = mlp(widths, { seed: 1 });
  const trainer =
    kind === 'DDP' ? await DDP(model, opts) : await ZeRO(model, { ...opts, stage: 3 });
  // The step report takes its means per configuration: the first step (DDP rebuilds its buckets after
  // it) apart from the ones timed here.
  dist.simulation?.configuration(`${kind}, first step`);
  await trainer.trainStep(x, y);
  dist.simulation?.configuration(kind);
  const t = await clock();
  let loss = 0;
  for (let s = 0; s < steps; s++) loss = await trainer.trainStep(x, y);
  return { seconds: ((await clock()) - t) / steps, loss };
}

const ddp = await stepSeconds('DDP');
const zero3 = await stepSeconds('ZeRO-3');
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
if (dist.rank === 0)
  console.log(
    dist.simulation
      ? 'times: virtual, on the simulated cluster'
      : 'times: wall clock, measured on this machine',
  );
console.log(
  `DDP step ${ms(ddp.seconds)}, ZeRO-3 step ${ms(zero3.seconds)}: ${(zero3.seconds / ddp.seconds).toFixed(2)}× as long`,
);
console.log(`ZeRO-3's step is longer: ${zero3.seconds > ddp.seconds}`);
// Sharding changes where the bytes live and when they move, not the arithmetic: the same training.
console.log(
  `rank ${dist.rank}: loss at step ${steps + 1}: DDP ${ddp.loss.toFixed(4)}, ZeRO-3 ${zero3.loss.toFixed(4)}`,
);
