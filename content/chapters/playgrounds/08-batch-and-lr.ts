// The same model and the same data, trained for the same number of epochs at global batch 32 to 2048
// over the ranks: with the base learning rate, with the rate scaled by √k, and scaled linearly by k
// with a warm-up. Every rank computes its shard of each global batch; gradients are averaged. Rank 0 plots
// each run's loss on all the data every 256 examples, so the curves share their x (epochs).
import * as tf from '@tensorflow/tfjs';
import { dist, plot } from 'ranks';

const n = dist.worldSize,
  d = 16,
  examples = 4096,
  epochs = 2;
const baseBatch = 32,
  baseLr = 0.01,
  warmupFraction = 0.25;
const X = tf.randomNormal([examples, d], 0, 1.5, 'float32', 1);
const wTrue = tf.randomNormal([d, 1], 0, 1, 'float32', 2);
const Y = X.matMul(wTrue).add(tf.randomNormal([examples, 1], 0, 0.5, 'float32', 3)); // noisy linear targets
const lossOn = (w: tf.Tensor, x: tf.Tensor, y: tf.Tensor) =>
  tf.losses.meanSquaredError(y, x.matMul(w)) as tf.Scalar;
const grad = tf.grad((w: tf.Tensor) => lossOn(w, xb, yb));
let xb: tf.Tensor = X,
  yb: tf.Tensor = Y;

type Rule = 'base' | 'sqrt' | 'linear';
async function train(batch: number, rule: Rule) {
  const per = batch / n,
    steps = (epochs * examples) / batch;
  const k = batch / baseBatch;
  const peak = rule === 'linear' ? baseLr * k : rule === 'sqrt' ? baseLr * Math.sqrt(k) : baseLr; // Goyal et al.: linear
  const warmup = rule === 'base' ? 0 : Math.max(1, Math.round(warmupFraction * steps));
  let w = tf.zeros([d, 1]);
  const drawn = batch <= 512; // batch 2048 diverges: its loss would flatten every other curve
  const series = `batch ${batch}, ${rule}`;
  for (let step = 0; step < steps; step++) {
    if (drawn && dist.rank === 0 && (step * batch) % 256 === 0)
      plot.line('loss on all data', (step * batch) / examples, (await lossOn(w, X, Y).data())[0]!, {
        series,
      });
    const lr = step < warmup ? (peak * (step + 1)) / warmup : peak;
    const start = (step % (examples / batch)) * batch + dist.rank * per; // this rank's slice of the global batch (the rows are i.i.d.)
    xb = X.slice([start, 0], [per, d]);
    yb = Y.slice([start, 0], [per, 1]);
    const g = await dist.allReduce(grad(w), { op: 'avg' });
    const next = w.sub(g.mul(lr));
    w.dispose();
    g.dispose();
    xb.dispose();
    yb.dispose();
    w = next;
  }
  const loss = (await lossOn(w, X, Y).data())[0]!;
  if (drawn && dist.rank === 0) {
    plot.line('loss on all data', epochs, loss, { series });
    plot.bar('final loss', `batch ${batch}`, loss, { series: rule });
  }
  return { batch, rule, steps, peak, warmup, loss };
}

const runs: Awaited<ReturnType<typeof train>>[] = [];
runs.push(await train(baseBatch, 'base'));
for (const batch of [128, 512])
  for (const rule of ['base', 'sqrt', 'linear'] as const) runs.push(await train(batch, rule));
runs.push(await train(2048, 'linear'));
const ref = runs[0]!.loss;
console.log(`global batch | per rank | rule   | steps | peak lr | warm-up | final loss`);
for (const r of runs)
  console.log(
    `${String(r.batch).padStart(12)} | ${String(r.batch / n).padStart(8)} | ${r.rule.padEnd(6)} | ${String(r.steps).padStart(5)} | ${r.peak.toFixed(2).padStart(7)} | ${String(r.warmup).padStart(7)} | ${r.loss.toFixed(3)}`,
  );
const at = (batch: number, rule: Rule) =>
  runs.find((r) => r.batch === batch && r.rule === rule)!.loss;
console.log(`batch 512 at the base rate falls behind: ${at(512, 'base') > 2 * ref}`);
console.log(
  `√k scaling helps but is not enough for plain SGD: ${at(512, 'sqrt') < at(512, 'base') && at(512, 'sqrt') > 1.1 * ref}`,
);
console.log(
  `batch 512 with linear scaling and warm-up comes within 10% of batch 32: ${Math.abs(at(512, 'linear') - ref) / ref < 0.1}`,
);
const untrained = (await lossOn(tf.zeros([d, 1]), X, Y).data())[0]!;
console.log(
  `batch 2048 at the linearly scaled rate diverges: ${at(2048, 'linear') > untrained} (rate ${runs.at(-1)!.peak.toFixed(2)}, untrained loss ${untrained.toFixed(1)})`,
);
