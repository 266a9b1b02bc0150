// DDP versus ZeRO-3 in virtual time: the same model and batch, charged as a 7B-parameter model.
// DDP all-reduces the gradients once per step; ZeRO-3 all-gathers every layer's parameters in
// forward and again in backward, and reduce-scatters the gradients: 1.5× the bytes on the wire.
import * as tf from '@tensorflow/tfjs';
import { dist, DDP, ZeRO, mlp, SGD, commBytes, commBytesSince, totalBytes } from 'ranks';

const widths = [128, 256, 256, 256, 128],
  rows = 16,
  steps = 2,
  tokensPerGpu = 4096;
const x = tf.randomNormal([rows, widths[0]!], 0, 1, 'float32', 1 + dist.rank);
const y = tf.randomNormal([rows, widths.at(-1)!], 0, 1, 'float32', 100 + dist.rank);
const chargeAs = { params: 7e9, tokensPerStep: tokensPerGpu * dist.worldSize };
/** Seconds on the run's clock: the cluster's virtual time, or this machine's. */
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;

async function measure(kind: 'DDP' | 'ZeRO-3'): Promise<{ seconds: number; bytes: number }> {
  const opts = { optimizer: new SGD({ lr: 0.01 }), chargeAs };
  const model = mlp(widths, { seed: 1 });
  const trainer =
    kind === 'DDP' ? await DDP(model, opts) : await ZeRO(model, { ...opts, stage: 3 });
  await trainer.trainStep(x, y); // DDP rebuilds its buckets after the first step
  const before = commBytes();
  const t = await clock();
  for (let s = 0; s < steps; s++) await trainer.trainStep(x, y);
  return {
    seconds: ((await clock()) - t) / steps,
    bytes: totalBytes(commBytesSince(before)) / steps,
  };
}

const ddp = await measure('DDP');
const zero3 = await measure('ZeRO-3');
if (dist.rank === 0)
  for (const [name, m] of [
    ['DDP   ', ddp],
    ['ZeRO-3', zero3],
  ] as const)
    console.log(
      `${name}: step ${(m.seconds * 1000).toFixed(1)} ms, sends ${m.bytes.toLocaleString('en')} bytes per step (this model's own)`,
    );
const ratio = zero3.bytes / ddp.bytes;
console.log(`ZeRO-3 sends ${ratio.toFixed(2)}× DDP's bytes per step`);
console.log(`ZeRO-3's step is longer: ${zero3.seconds > ddp.seconds}`);
