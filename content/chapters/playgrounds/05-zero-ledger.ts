// DDP and ZeRO-1/2/3 by hand on one flat parameter vector, with Adam. Each rank keeps a ledger
// of the bytes it holds between steps and reads the runtime's counters of the bytes it sent.
// ZeRO-1 twice: with reduce-scatter + all-gather (as the ZeRO paper describes it), and as PyTorch's ZeroRedundancyOptimizer
// (DDP's all-reduce, then every rank broadcasts the shard it updated).
import * as tf from '@tensorflow/tfjs';
import { dist, commBytes, commBytesSince, totalBytes } from 'ranks';

const psi = 1 << 16,
  rows = 4,
  n = dist.worldSize,
  shard = psi / n,
  lr = 1e-3;
const X = tf.randomNormal([rows, psi], 0, 1, 'float32', 10 + dist.rank);
const y = tf.randomNormal([rows, 1], 0, 1, 'float32', 20 + dist.rank);
const w0 = tf.randomNormal([psi], 0, 0.01, 'float32', 1); // same seed on every rank
const loss = (w: tf.Tensor) =>
  tf.losses.meanSquaredError(y, X.matMul(w.reshape([psi, 1]))) as tf.Scalar;
const grad = tf.grad(loss);
const mine = (t: tf.Tensor) => t.slice([dist.rank * shard], [shard]);

// One Adam step on whichever slice of the state this rank owns.
function adam(w: tf.Tensor, g: tf.Tensor, m: tf.Tensor, v: tf.Tensor, t: number) {
  const m2 = m.mul(0.9).add(g.mul(0.1)),
    v2 = v.mul(0.999).add(g.square().mul(0.001));
  const step = m2
    .div(1 - 0.9 ** t)
    .div(
      v2
        .div(1 - 0.999 ** t)
        .sqrt()
        .add(1e-8),
    )
    .mul(lr);
  return { w: w.sub(step), m: m2, v: v2 };
}

const gather = async (part: tf.Tensor) => (await dist.allGather(part)).reshape([psi]);

type Variant = 0 | 1 | 2 | 3 | '1-torch';

async function train(variant: Variant, steps: number) {
  const stage = variant === '1-torch' ? 1 : variant;
  const before = commBytes(); // bytes sent so far, counted by the collectives themselves
  const full = stage < 3; // ZeRO-3 keeps only a shard of the parameters
  let w = full ? w0.clone() : mine(w0);
  let m = tf.zeros([stage >= 1 ? shard : psi]),
    v = tf.zeros([stage >= 1 ? shard : psi]);
  let g: tf.Tensor = tf.zeros([stage >= 2 ? shard : psi]);
  for (let t = 1; t <= steps; t++) {
    g.dispose();
    if (stage === 0) {
      g = await dist.allReduce(grad(w), { op: 'avg', algorithm: 'ring' });
      ({ w, m, v } = adam(w, g, m, v, t));
    } else if (variant === '1-torch') {
      g = await dist.allReduce(grad(w), { op: 'avg', algorithm: 'ring' }); // DDP's full all-reduce
      const upd = adam(mine(w), mine(g), m, v, t);
      m = upd.m;
      v = upd.v;
      // Every rank broadcasts the shard it updated; the others receive it.
      const parts: tf.Tensor[] = [];
      for (let src = 0; src < n; src++)
        parts.push(await dist.broadcast(src === dist.rank ? upd.w : tf.zeros([shard]), { src }));
      w = tf.concat(parts);
    } else if (stage < 3) {
      const local = grad(w);
      const gShard = await dist.reduceScatter(local, { op: 'avg' });
      const upd = adam(mine(w), gShard, m, v, t);
      m = upd.m;
      v = upd.v;
      w = await gather(upd.w); // share the updated parameters; optimizer state stays put
      g = stage === 1 ? local : gShard; // ZeRO-1 keeps its full gradient buffer
    } else {
      const forLoss = await gather(w);
      loss(forLoss).dispose();
      forLoss.dispose(); // forward, then free
      const forGrad = await gather(w);
      const local = grad(forGrad);
      forGrad.dispose(); // backward
      g = await dist.reduceScatter(local, { op: 'avg' });
      ({ w, m, v } = adam(w, g, m, v, t));
    }
  }
  const moved = totalBytes(commBytesSince(before)) / 4 / steps; // elements sent per step
  const bytes = (t: tf.Tensor) => t.size * 4;
  const ledger = { params: bytes(w), grads: bytes(g), optimizer: bytes(m) + bytes(v) };
  const total = ledger.params + ledger.grads + ledger.optimizer;
  const label = {
    0: 'DDP           ',
    1: 'ZeRO-1 (RS+AG)',
    '1-torch': 'ZeRO-1 (AR+BC)',
    2: 'ZeRO-2        ',
    3: 'ZeRO-3        ',
  }[variant];
  console.log(
    `${label} holds ${total} B = ${(total / psi).toFixed(2)} B/param ` +
      `(params ${ledger.params}, grads ${ledger.grads}, optimizer ${ledger.optimizer}); ` +
      `sends ${(moved / psi).toFixed(2)}Ψ per step`,
  );
  const fullW = full ? w : await dist.allGather(w);
  return { perStep: moved, weights: fullW.reshape([psi]) };
}

const ddp = await train(0, 3);
const [zero1, zero1Torch, zero2, zero3] = [
  await train(1, 3),
  await train('1-torch', 3),
  await train(2, 3),
  await train(3, 3),
];
const results = [ddp, zero1, zero1Torch, zero2, zero3];
const maxDiff = Math.max(
  ...(await Promise.all(
    results.map(async (r) => (await r.weights.sub(ddp.weights).abs().max().data())[0]!),
  )),
);
console.log(`rank ${dist.rank}: every stage reaches the same weights as DDP: ${maxDiff < 1e-5}`);
if (ddp.perStep === 0) {
  console.log('one rank sends nothing: pick 2 or more ranks to compare communication');
} else {
  const ratio = (r: { perStep: number }) => `${(r.perStep / ddp.perStep).toFixed(2)}x`;
  console.log(
    `ZeRO-1 / DDP communication: ${ratio(zero1)} with reduce-scatter + all-gather, ${ratio(zero1Torch)} as ZeroRedundancyOptimizer (all-reduce + broadcast)`,
  );
  console.log(`ZeRO-3 / DDP communication: ${ratio(zero3)}`);
}
