// A small decoder-only, character-level transformer trained three ways at once on every rank: with the
// book's DDP on this rank's shard of each global batch, with FSDP2's fullyShard on the same shard (one unit
// per transformer block, then the root unit for the embeddings and the head, as PyTorch's recipe shards a
// transformer; each rank keeps a quarter of every weight and of Adam's state), and as one device on the
// whole batch. Same init, same data, same Adam: losses and weights agree to float32 rounding.
import * as tf from '@tensorflow/tfjs';
import {
  dist,
  DDP,
  fullyShard,
  plot,
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
const s = 16,
  h = 32,
  heads = 4,
  dh = h / heads,
  layers = 2,
  globalBatch = 8,
  steps = 8;
const n = dist.worldSize,
  per = globalBatch / n;
if (globalBatch % n !== 0)
  throw new Error(`global batch ${globalBatch} must divide by the world size ${n}`);

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

/** One pre-norm block, [rows, s, h] → [rows, s, h]: causal multi-head attention, then a 4h MLP, each added back. */
function block(y: tf.Tensor, [wqkv, wo, w1, w2]: readonly tf.Tensor[]): tf.Tensor {
  const rows = y.shape[0]!;
  const qkv = mm(norm(y), wqkv!);
  const split = (i: number) =>
    qkv
      .slice([0, 0, i * h], [rows, s, h])
      .reshape([rows, s, heads, dh])
      .transpose([0, 2, 1, 3]);
  const att = tf.matMul(split(0), split(1), false, true).div(Math.sqrt(dh)).add(causal).softmax();
  const z = y.add(mm(tf.matMul(att, split(2)).transpose([0, 2, 1, 3]).reshape([rows, s, h]), wo!));
  return z.add(mm(mm(norm(z), w1!).relu(), w2!));
}

/**
 * The model as stages run in order, each one layer to the trainers: embeddings (one-hot characters
 * [rows, s, V] → [rows, s, h]), the blocks, and the output head (→ logits [rows, s, V]). Parameters come
 * from fixed seeds, so every rank and the single-device copy start identical.
 */
function model(): FunctionModel[] {
  const r = (shape: number[], seed: number, std = 0.08) =>
    tf.variable(tf.randomNormal(shape, 0, std, 'float32', seed));
  const embedding: FunctionModel = {
    params: [r([V, h], 1), r([s, h], 2)],
    // One-hot × embedding table: a lookup autodiff can pass through; plus learned positions.
    forward: (x, [wte, wpe]) => mm(x, wte!).add(wpe!),
  };
  const blocks = Array.from({ length: layers }, (_, l) => ({
    params: [
      r([h, 3 * h], 10 + l),
      r([h, h], 20 + l),
      r([h, 4 * h], 30 + l),
      r([4 * h, h], 40 + l),
    ],
    forward: block,
  }));
  const head: FunctionModel = { params: [r([h, V], 3)], forward: (y, [w]) => mm(norm(y), w!) };
  return [embedding, ...blocks, head];
}
const stageNames = ['embedding', ...Array.from({ length: layers }, (_, l) => `block ${l}`), 'head'];
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

const adam = () => new Adam({ lr: 3e-3 });
const ddp = await DDP(model(), { optimizer: adam() });
// FSDP2's recipe: fully_shard on each block, then on the root, whose unit takes what is left (embeddings and
// head) and, by default, keeps it whole from forward to backward (PyTorch: torch/distributed/fsdp/_fully_shard/_fully_shard.py).
const fsdp = await fullyShard(model(), {
  optimizer: adam(),
  units: Array.from({ length: layers }, (_, l) => [1 + l]), // stage 1 + l is block l
});
// The one-device reference runs on rank 0 only (the whole batch, every step); its verdicts are broadcast.
const single = dist.rank === 0 ? new SingleDeviceTrainer(toSequential(model()), adam()) : null;
const averaged = async (local: number) =>
  (await (await dist.allReduce(tf.scalar(local), { op: 'avg' })).data())[0]!;
let worstLossGap = 0,
  firstLoss = 0,
  lastLoss = 0;
const ms = { ddp: 0, fsdp: 0, single: 0 };
const timed = async (which: keyof typeof ms, step: () => Promise<number>) => {
  const t0 = performance.now();
  const loss = await step();
  ms[which] += performance.now() - t0;
  return loss;
};
for (let t = 0; t < steps; t++) {
  const { x, y } = batch(t);
  const mine = {
    x: x.slice([dist.rank * per, 0, 0], [per, s, V]),
    y: y.slice([dist.rank * per, 0, 0], [per, s, V]),
  };
  // Each rank trains on its shard: DDP all-reduces the gradients, FSDP reduce-scatters them.
  const ddpLoss = await averaged(
    await timed('ddp', () => ddp.trainStep(mine.x, mine.y, nextCharLoss)),
  );
  const fsdpLoss = await averaged(
    await timed('fsdp', () => fsdp.trainStep(mine.x, mine.y, nextCharLoss)),
  );
  if (t === 0) firstLoss = ddpLoss;
  lastLoss = ddpLoss;
  if (single) {
    const reference = await timed('single', () => single.trainStep(x, y, nextCharLoss));
    worstLossGap = Math.max(
      worstLossGap,
      Math.abs(ddpLoss - reference),
      Math.abs(fsdpLoss - reference),
    );
    plot.line('next-character loss', t, ddpLoss, { series: `DDP, ${n} ranks` });
    plot.line('next-character loss', t, fsdpLoss, { series: `FSDP, ${n} ranks` });
    plot.line('next-character loss', t, reference, { series: 'one device' });
    if (t % 4 === 0 || t === steps - 1)
      console.log(
        `step ${String(t).padStart(2)}: loss ${ddpLoss.toFixed(4)} DDP, ${fsdpLoss.toFixed(4)} FSDP, ${reference.toFixed(4)} one device`,
      );
  }
  tf.dispose([x, y, mine.x, mine.y]);
}
const ddpW = await ddp.snapshot(),
  fsdpW = await fsdp.snapshot(); // FSDP's snapshot all-gathers every rank's shards into whole weights
// Read with data(), not dataSync(): WebGPU's synchronous read is slow, and on SwiftShader it returned wrong values.
const refW = single ? await Promise.all(single.model.params.map((p) => p.data())) : [];
const gap = (w: Record<string, Float32Array>) =>
  Math.max(
    ...Object.values(w).map((v, i) => Math.max(...v.map((a, j) => Math.abs(a - refW![i]![j]!)))),
  );
const verdict = await dist.broadcast(
  tf.tensor(single ? [worstLossGap, gap(ddpW), gap(fsdpW), ms.single / steps] : [0, 0, 0, 0]),
  { src: 0 },
);
const [lossGap, ddpGap, fsdpGap, singleMs] = Array.from(await verdict.data());
const perStep = (total: number) => `${(total / steps).toFixed(0)} ms`;
const unitNames = fsdp.units.map(
  (u) => u.layers.map((l) => stageNames[l]).join(' + ') + (u.root ? ' (root)' : ''),
);
console.log(`FSDP units: ${unitNames.join(', ')}`);
console.log(
  `vocabulary ${V} characters, ${ddp.model.params.reduce((a, p) => a + p.size, 0)} parameters; per step: DDP ${perStep(ms.ddp)}, FSDP ${perStep(ms.fsdp)}, one device ${singleMs!.toFixed(0)} ms (${tf.getBackend()})`,
);
console.log(
  `loss fell from ${firstLoss.toFixed(2)} to ${lastLoss.toFixed(2)}: ${lastLoss < firstLoss - 0.5}; largest loss gap ${lossGap!.toExponential(1)}, largest weight gap DDP ${ddpGap!.toExponential(1)}, FSDP ${fsdpGap!.toExponential(1)}`,
);
console.log(
  `DDP on ${n} ranks matches one device (tolerance 1e-4): ${ddpGap! < 1e-4 && lossGap! < 1e-4}`,
);
console.log(
  `FSDP on ${n} ranks matches one device (tolerance 1e-4): ${fsdpGap! < 1e-4 && lossGap! < 1e-4}`,
);
