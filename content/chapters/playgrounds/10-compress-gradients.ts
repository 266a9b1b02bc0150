// One gradient all-reduced three ways, as DDP's communication hooks would send it: exact fp32,
// bf16_compress_hook (16 bits on the wire) and PowerSGD at rank 4 (two thin matrices P and Q).
// Each rank prints the bytes its collectives sent (counted by the runtime), the time they took
// and the error against the exact all-reduce; then 12 SGD steps with PowerSGD at rank 1,
// with and without error feedback, against the same steps with exact gradients.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const N = dist.worldSize,
  n = 256,
  m = 128,
  rows = 32,
  steps = 12,
  lr = 0.1;
const X = tf.randomNormal([rows, n], 0, 1, 'float32', 10 + dist.rank);
const Y = tf.randomNormal([rows, m], 0, 1, 'float32', 20 + dist.rank);
const W0 = tf.randomNormal([n, m], 0, 0.05, 'float32', 1);
/** This rank's gradient of its mean squared error at W: 2/(rows·m) · Xᵀ(XW − Y). */
const gradient = (W: tf.Tensor) =>
  tf.tidy(() =>
    X.transpose()
      .matMul(X.matMul(W).sub(Y))
      .mul(2 / (rows * m)),
  );
const loss = async (W: tf.Tensor) => {
  const local = tf.tidy(() => X.matMul(W).sub(Y).square().mean());
  return (await (await dist.allReduce(local, { op: 'avg' })).data())[0]!;
};
// Charge each collective as a 1e9-parameter model made of n×m matrices; real time: no charge.
dist.simulation?.chargeAs(
  { params: 1e9, tokensPerStep: 1, bytesPerElement: 4 },
  { params: n * m, tokensPerStep: 1 },
);
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;
const sent = () =>
  Object.values(dist.commStats()).reduce((total, kind) => total + (kind?.sent ?? 0), 0);
/** Bytes this rank sends and seconds it spends in `f`. */
async function measure<T>(f: () => Promise<T>): Promise<{ out: T; bytes: number; s: number }> {
  const [b, t] = [sent(), await clock()];
  const out = await f();
  return { out, bytes: sent() - b, s: (await clock()) - t };
}
const relError = async (a: tf.Tensor, exact: tf.Tensor) =>
  (await tf.tidy(() => a.sub(exact).norm().div(exact.norm())).data())[0]!;

// --- bf16: round to nearest even, as torch's .to(torch.bfloat16); two bf16 values travel in one int32.
function toBf16(x: Float32Array): Uint16Array {
  const u = new Uint32Array(x.buffer, x.byteOffset, x.length);
  return Uint16Array.from(u, (v) => (v + 0x7fff + ((v >>> 16) & 1)) >>> 16);
}
const fromBf16 = (b: Uint16Array) => new Float32Array(Uint32Array.from(b, (v) => v << 16).buffer);
const packed = (b: Uint16Array) => tf.tensor1d(new Int32Array(b.slice().buffer), 'int32');
const unpacked = async (t: tf.Tensor) => new Uint16Array((await t.data()).slice().buffer);

/**
 * bf16_compress_hook: cast to bf16, divide by the world size (in bf16), all-reduce in bf16, cast back.
 * The all-reduce is NCCL's ring: a reduce-scatter in N − 1 hops, each passing a running partial sum to the
 * next rank, which adds its own chunk and rounds the sum to bf16 again (so the error grows with the world
 * size), then an all-gather. Every byte on the wire is a 16-bit value.
 */
async function bf16AllReduce(g: tf.Tensor): Promise<tf.Tensor> {
  const q = toBf16(fromBf16(toBf16((await g.data()) as Float32Array)).map((v) => v / N));
  const chunk = q.length / N;
  const part = (j: number) => q.subarray(j * chunk, (j + 1) * chunk);
  const mod = (j: number) => ((j % N) + N) % N;
  const acc = [...Array(N).keys()].map((j) => part(j)); // this rank's running sum of each chunk, in bf16
  for (let s = 0; s < N - 1; s++) {
    // Step s: send chunk r − s − 1 on to rank r + 1; receive chunk r − s − 2 from rank r − 1 and add to it.
    const [out, inn] = [mod(dist.rank - s - 1), mod(dist.rank - s - 2)];
    const send = dist.send(packed(acc[out]!), { dst: mod(dist.rank + 1), async: true });
    const got = fromBf16(
      await unpacked(await dist.recv([chunk / 2], { src: mod(dist.rank - 1), dtype: 'int32' })),
    );
    const mine = fromBf16(part(inn));
    acc[inn] = toBf16(got.map((v, i) => v + mine[i]!));
    await send.wait();
  }
  const all = await dist.allGather(packed(acc[dist.rank]!));
  return tf.tensor(fromBf16(await unpacked(all)), [n, m]);
}

/** NCCL's ring, so the runtime counts what a ring puts on the wire: 2(N − 1)/N of the tensor per rank. */
const ring = { algorithm: 'ring' } as const;

// --- PowerSGD (torch/distributed/algorithms/ddp_comm_hooks/powerSGD_hook.py), one n×m matrix.
/** Gram–Schmidt on the columns, as the hook does at rank ≤ 2 (its QR at rank 4 gives the same orthonormal basis up to signs); epsilon 1e-8 as in PyTorch 1.8, the default is now 0. */
function orthogonalize(p: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => {
    const cols: tf.Tensor2D[] = [];
    for (let i = 0; i < p.shape[1]; i++) {
      let c = p.slice([0, i], [-1, 1]);
      for (const prev of cols) c = c.sub(prev.mul(prev.mul(c).sum()));
      cols.push(c.div(c.norm().add(1e-8)));
    }
    return tf.concat(cols, 1);
  });
}
interface PowerSgdState {
  rank: number;
  errorFeedback: boolean;
  q: tf.Tensor2D | null; // warm start: Q kept from the previous step
  error: tf.Tensor | null; // error feedback: what compression dropped, added to the next gradient
}
/** PowerSGD's all-reduce of `g`: P = MQ, all-reduce P, orthogonalize, Q = MᵀP, all-reduce Q, M ≈ PQᵀ / N. */
async function powerSgdAllReduce(g: tf.Tensor, s: PowerSgdState, seed: number) {
  const M = s.errorFeedback && s.error ? g.add(s.error) : g.clone();
  const q0 = s.q ?? tf.randomNormal([m, s.rank], 0, 1, 'float32', seed);
  const q = orthogonalize(q0 as tf.Tensor2D);
  const p = orthogonalize((await dist.allReduce(M.matMul(q), ring)) as tf.Tensor2D);
  const qNew = (await dist.allReduce(M.transpose().matMul(p), ring)).div(N) as tf.Tensor2D;
  const approx = p.matMul(qNew.transpose());
  if (s.errorFeedback) s.error = M.sub(approx);
  s.q = qNew;
  return approx;
}

// 1. One gradient, three ways.
const G = gradient(W0);
const exact = await measure(() => dist.allReduce(G, { op: 'avg', algorithm: 'ring' }));
const bf16 = await measure(() => bf16AllReduce(G));
const psgd = await measure(() =>
  powerSgdAllReduce(G, { rank: 4, errorFeedback: false, q: null, error: null }, 7),
);
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
const bf16Error = await relError(bf16.out, exact.out);
const psgdError = await relError(psgd.out, exact.out);
if (dist.rank === 0) {
  console.log(
    dist.simulation
      ? 'times: virtual, on the simulated cluster, each collective charged as a 1e9-parameter model of such matrices'
      : 'times: wall clock, measured on this machine',
  );
  console.log(`one ${n}×${m} fp32 gradient per rank, ${N} ranks`);
  console.log(`fp32 all-reduce: ${exact.bytes} bytes sent by this rank, ${ms(exact.s)}`);
  console.log(
    `bf16 hook: ${bf16.bytes} bytes (${(bf16.bytes / exact.bytes).toFixed(2)}× fp32), ${ms(bf16.s)}, relative error ${bf16Error.toExponential(1)}`,
  );
  console.log(
    `PowerSGD rank 4: ${psgd.bytes} bytes (${(psgd.bytes / exact.bytes).toFixed(3)}× fp32), ${ms(psgd.s)}, relative error ${psgdError.toFixed(3)}`,
  );
}
console.log(`bf16 sends half the bytes: ${bf16.bytes * 2 === exact.bytes}`);
console.log(
  `PowerSGD rank 4 sends (n + m)·r = ${(n + m) * 4} numbers for ${n * m}: ${exact.bytes / psgd.bytes === (n * m) / ((n + m) * 4)}`,
);

// 2. Training: every step's gradient all-reduced exactly, or by PowerSGD rank 1 with and without error feedback.
async function train(mode: 'exact' | 'no-feedback' | 'feedback'): Promise<tf.Tensor> {
  const s: PowerSgdState = { rank: 1, errorFeedback: mode === 'feedback', q: null, error: null };
  let W = W0.clone();
  for (let step = 0; step < steps; step++) {
    const g = gradient(W);
    const avg =
      mode === 'exact'
        ? await dist.allReduce(g, { op: 'avg', algorithm: 'ring' })
        : await powerSgdAllReduce(g, s, 100 + step);
    W = tf.tidy(() => W.sub(avg.mul(lr)));
  }
  return W;
}
const wExact = await train('exact');
const wNoFeedback = await train('no-feedback');
const wFeedback = await train('feedback');
const [lossExact, lossNo, lossEf] = [
  await loss(wExact),
  await loss(wNoFeedback),
  await loss(wFeedback),
];
const [gapNo, gapEf] = [await relError(wNoFeedback, wExact), await relError(wFeedback, wExact)];
if (dist.rank === 0) {
  console.log(
    `after ${steps} steps: loss ${lossExact.toFixed(4)} exact, ${lossNo.toFixed(4)} PowerSGD rank 1, ${lossEf.toFixed(4)} with error feedback`,
  );
  console.log(
    `weights' relative distance to the exact run: ${gapNo.toFixed(3)} without error feedback, ${gapEf.toFixed(3)} with`,
  );
  console.log(`error feedback keeps ${n * m * 4} bytes per rank: one more fp32 gradient`);
}
console.log(`error feedback brings PowerSGD closer to exact: ${gapEf < gapNo}`);
