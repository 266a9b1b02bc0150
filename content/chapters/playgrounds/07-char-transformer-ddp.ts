// A small decoder-only, character-level transformer trained with the book's DDP on every rank's
// shard of each global batch, next to one device training on the whole batch. Same init, same data,
// same Adam: the losses and the final weights must agree to float32 rounding.
import * as tf from '@tensorflow/tfjs';
import {
  dist,
  DDP,
  Adam,
  SingleDeviceTrainer,
  toSequential,
  Lcg,
  type FunctionModel,
  type RowLoss,
} from 'ranks';

const text = `Data parallelism copies the model to every rank and splits the batch. Each rank computes gradients on its own examples; an all-reduce averages them, and every replica takes the same step. Nothing about the mathematics changes: the average of the shard gradients is the gradient of the whole batch.`;
const vocab = [...new Set(text)].sort(),
  V = vocab.length,
  ids = [...text].map((c) => vocab.indexOf(c));
const s = 24,
  h = 32,
  heads = 4,
  dh = h / heads,
  layers = 2,
  globalBatch = 8,
  steps = 12;
const n = dist.worldSize,
  per = globalBatch / n;
if (globalBatch % n !== 0)
  throw new Error(`global batch ${globalBatch} must divide by the world size ${n}`);

/** Parameters from a fixed seed, so every rank and the single-device copy start identical. */
function init(): FunctionModel['params'] {
  const r = (shape: number[], seed: number, std = 0.08) =>
    tf.variable(tf.randomNormal(shape, 0, std, 'float32', seed));
  const ps = [r([V, h], 1), r([s, h], 2)];
  for (let l = 0; l < layers; l++)
    ps.push(r([h, 3 * h], 10 + l), r([h, h], 20 + l), r([h, 4 * h], 30 + l), r([4 * h, h], 40 + l));
  ps.push(r([h, V], 3));
  return ps;
}
const norm = (x: tf.Tensor) => {
  const { mean, variance } = tf.moments(x, -1, true);
  return x.sub(mean).div(variance.add(1e-5).sqrt());
};
const causal = tf.linalg
  .bandPart(tf.ones([s, s]), -1, 0)
  .sub(1)
  .mul(1e9); // 0 on and below the diagonal, −1e9 above
const mm = (x: tf.Tensor, w: tf.Tensor) =>
  tf.matMul(x.reshape([-1, w.shape[0]!]), w).reshape([...x.shape.slice(0, -1), w.shape[1]!]);

/** One-hot characters [rows, s, V] → logits [rows, s, V]: embeddings, pre-norm causal attention + 4h MLP blocks, output head. */
function forward(x: tf.Tensor, p: readonly tf.Tensor[]): tf.Tensor {
  const rows = x.shape[0]!;
  let y = mm(x, p[0]!).add(p[1]!); // one-hot × embedding table: a lookup autodiff can pass through
  for (let l = 0; l < layers; l++) {
    const [wqkv, wo, w1, w2] = p.slice(2 + 4 * l, 6 + 4 * l) as tf.Tensor[];
    const qkv = mm(norm(y), wqkv!);
    const split = (i: number) =>
      qkv
        .slice([0, 0, i * h], [rows, s, h])
        .reshape([rows, s, heads, dh])
        .transpose([0, 2, 1, 3]);
    const att = tf.matMul(split(0), split(1), false, true).div(Math.sqrt(dh)).add(causal).softmax();
    y = y.add(mm(tf.matMul(att, split(2)).transpose([0, 2, 1, 3]).reshape([rows, s, h]), wo!));
    y = y.add(mm(mm(norm(y), w1!).relu(), w2!));
  }
  return mm(norm(y), p.at(-1)!);
}
/** Next-character cross-entropy, averaged over the positions of each sequence: one value per row. */
const nextCharLoss: RowLoss = (logits, target) =>
  tf.neg(tf.sum(target.mul(tf.logSoftmax(logits)), -1)).mean(-1);

/** The global batch of step t, the same on every rank: windows of s characters and their one-hot next characters. */
function batch(t: number): { x: tf.Tensor; y: tf.Tensor } {
  const lcg = new Lcg(1000 + t),
    starts = Array.from({ length: globalBatch }, () =>
      Math.floor(((lcg.next() + 1) / 2) * (ids.length - s - 1)),
    );
  const x = tf
    .oneHot(
      tf.tensor2d(
        starts.map((a) => ids.slice(a, a + s)),
        [globalBatch, s],
        'int32',
      ),
      V,
    )
    .toFloat();
  const y = tf.oneHot(
    tf.tensor2d(
      starts.map((a) => ids.slice(a + 1, a + s + 1)),
      [globalBatch, s],
      'int32',
    ),
    V,
  );
  return { x, y };
}

const ddp = await DDP({ params: init(), forward }, { optimizer: new Adam({ lr: 3e-3 }) });
const single = new SingleDeviceTrainer(
  toSequential({ params: init(), forward }),
  new Adam({ lr: 3e-3 }),
);
let worstLossGap = 0,
  firstLoss = 0,
  lastLoss = 0;
let ddpMs = 0,
  singleMs = 0;
for (let t = 0; t < steps; t++) {
  const { x, y } = batch(t);
  const mine = {
    x: x.slice([dist.rank * per, 0, 0], [per, s, V]),
    y: y.slice([dist.rank * per, 0, 0], [per, s, V]),
  };
  const t0 = performance.now();
  const local = await ddp.trainStep(mine.x, mine.y, nextCharLoss); // this rank's shard, gradients all-reduced
  ddpMs += performance.now() - t0;
  const globalLoss = (await (await dist.allReduce(tf.scalar(local), { op: 'avg' })).data())[0]!;
  const t1 = performance.now();
  const reference = await single.trainStep(x, y, nextCharLoss); // one device, the whole batch
  singleMs += performance.now() - t1;
  worstLossGap = Math.max(worstLossGap, Math.abs(globalLoss - reference));
  if (t === 0) firstLoss = globalLoss;
  lastLoss = globalLoss;
  if (t % 4 === 0 || t === steps - 1)
    console.log(
      `step ${String(t).padStart(2)}: loss ${globalLoss.toFixed(4)} on ${n} ranks, ${reference.toFixed(4)} on one device`,
    );
  tf.dispose([x, y, mine.x, mine.y]);
}
const mineW = await ddp.snapshot(),
  refW = single.model.params.map((p) => p.dataSync());
const weightGap = Math.max(
  ...Object.values(mineW).map((w, i) => Math.max(...w.map((v, j) => Math.abs(v - refW[i]![j]!)))),
);
console.log(
  `vocabulary ${V} characters, ${ddp.model.params.reduce((a, p) => a + p.size, 0)} parameters, DDP step ${(ddpMs / steps).toFixed(0)} ms, one-device step ${(singleMs / steps).toFixed(0)} ms (${tf.getBackend()})`,
);
console.log(
  `loss fell from ${firstLoss.toFixed(2)} to ${lastLoss.toFixed(2)}: ${lastLoss < firstLoss - 0.5}; largest loss gap ${worstLossGap.toExponential(1)}, largest weight gap ${weightGap.toExponential(1)}`,
);
console.log(
  `DDP on ${n} ranks matches one device (tolerance 1e-4): ${weightGap < 1e-4 && worstLossGap < 1e-4}`,
);
