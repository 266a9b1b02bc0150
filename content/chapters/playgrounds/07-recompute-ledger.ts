// A tiny stack of transformer blocks trained one step two ways: keeping every activation for backward,
// and full recomputation (keep each block's input, replay its forward during backward). Each rank
// measures the peak bytes tfjs held (tf.profile) and counts the matmul FLOPs it ran.
import * as tf from '@tensorflow/tfjs';
import { dist, MemoryLedger } from 'ranks';

const s = 32,
  b = 2,
  h = 32,
  heads = 4,
  layers = 4,
  dh = h / heads; // sequence, micro-batch, hidden, heads
let flops = 0; // matmul FLOPs actually executed, 2 per multiply-add
const matmul = (x: tf.Tensor, w: tf.Tensor) => {
  flops += ((2 * x.size) / x.shape.at(-1)!) * w.shape[0]! * w.shape[1]!;
  return tf.matMul(x.reshape([-1, w.shape[0]!]), w).reshape([...x.shape.slice(0, -1), w.shape[1]!]);
};

type Params = [wqkv: tf.Tensor, wo: tf.Tensor, w1: tf.Tensor, w2: tf.Tensor];
const init = (seed: number): Params => [
  tf.randomNormal([h, 3 * h], 0, 0.1, 'float32', seed),
  tf.randomNormal([h, h], 0, 0.1, 'float32', seed + 1),
  tf.randomNormal([h, 4 * h], 0, 0.1, 'float32', seed + 2),
  tf.randomNormal([4 * h, h], 0, 0.1, 'float32', seed + 3),
];
const norm = (x: tf.Tensor) => {
  const { mean, variance } = tf.moments(x, -1, true);
  return x.sub(mean).div(variance.add(1e-5).sqrt());
};

/** One pre-norm block: x + attention(LN(x)), then + MLP(LN(·)) with a 4h GeLU-like (tanh) layer. */
function block(x: tf.Tensor, [wqkv, wo, w1, w2]: Params): tf.Tensor {
  const qkv = matmul(norm(x), wqkv); // [b, s, 3h]
  const split = (i: number) =>
    qkv
      .slice([0, 0, i * h], [b, s, h])
      .reshape([b, s, heads, dh])
      .transpose([0, 2, 1, 3]);
  const [q, k, v] = [split(0), split(1), split(2)];
  flops += 2 * 2 * b * heads * s * s * dh; // QKᵀ and scores·V
  const scores = tf.matMul(q, k, false, true).div(Math.sqrt(dh)).softmax(); // [b, heads, s, s]: the 5as²b term
  const attn = tf.matMul(scores, v).transpose([0, 2, 1, 3]).reshape([b, s, h]);
  const y = x.add(matmul(attn, wo));
  return y.add(matmul(matmul(norm(y), w1).tanh(), w2));
}

const params = Array.from({ length: layers }, (_, l) => init(100 + 10 * l)); // same weights on every rank
const x0 = tf.randomNormal([b, s, h], 0, 1, 'float32', 7 + dist.rank); // each rank's own micro-batch
const flat = (gs: tf.Tensor[][]) => tf.concat(gs.flat().map((g) => g.reshape([-1])));
const lossOf = (out: tf.Tensor) => out.square().mean() as tf.Scalar;

// tf.profile reuses one record, so read its peak at once; count only what the step adds on top of what was already held.
async function peakOf(step: () => void): Promise<number> {
  const before = tf.memory().numBytes;
  const info = await tf.profile(step);
  return Math.max(...info.kernels.map((k) => k.totalBytesSnapshot)) - before;
}

// 1. Keep everything: autodiff holds every intermediate of every block until backward is done.
flops = 0;
let keepGrads: tf.Tensor[][] = [];
const keepPeak = await peakOf(() => {
  const forward = (...w: tf.Tensor[]) => {
    let x = x0;
    for (let l = 0; l < layers; l++) x = block(x, w.slice(4 * l, 4 * l + 4) as Params);
    return lossOf(x);
  };
  keepGrads = [
    tf
      .grads(forward)(params.flat())
      .map((g) => tf.keep(g)),
  ];
});
const keepFlops = flops;
await dist.barrier(); // keep the ranks in step between the two long, purely local phases

// 2. Full recomputation: forward without a tape, keeping only each block's input; backward replays one block at a time.
flops = 0;
const ledger = new MemoryLedger();
let recomputeGrads: tf.Tensor[][] = [];
const recomputePeak = await peakOf(() => {
  const inputs: tf.Tensor[] = [];
  let x = x0;
  for (const p of params) {
    inputs.push(x);
    x = tf.tidy(() => block(x, p));
    ledger.hold('activations', x);
  }
  let dy = tf.grad(lossOf)(x);
  const perLayer: tf.Tensor[][] = [];
  for (let l = layers - 1; l >= 0; l--) {
    const gs = tf.grads((xi: tf.Tensor, ...p: tf.Tensor[]) =>
      block(xi, p as Params)
        .mul(dy)
        .sum(),
    )([inputs[l]!, ...params[l]!]);
    dy = tf.keep(gs[0]!);
    perLayer.unshift(gs.slice(1).map((g) => tf.keep(g)));
  }
  recomputeGrads = [perLayer.flat()];
});
const recomputeFlops = flops;

// Data parallelism does not touch any of this: the gradients are averaged as always.
const [gKeep, gRe] = [flat(keepGrads), flat(recomputeGrads)];
const avg = await dist.allReduce(gRe, { op: 'avg' });
const gap = (await gKeep.sub(gRe).abs().max().data())[0]!;
const kB = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
console.log(
  `block: s=${s} b=${b} h=${h} a=${heads}, ${layers} layers; fp32, so 4 bytes per activation`,
);
console.log(
  `keep all activations:  peak ${kB(keepPeak)}, forward matmul FLOPs ${(keepFlops / 1e6).toFixed(2)} M`,
);
console.log(
  `full recomputation:    peak ${kB(recomputePeak)}, forward matmul FLOPs ${(recomputeFlops / 1e6).toFixed(2)} M (block boundaries kept: ${kB(ledger.bytes('activations'))})`,
);
console.log(
  `recomputation holds less: ${recomputePeak < keepPeak}; runs the forward twice: ${recomputeFlops === 2 * keepFlops}`,
);
console.log(
  `same gradients either way: ${gap < 1e-5}; averaged over ${dist.worldSize} ranks: ${avg.size === gKeep.size}`,
);
