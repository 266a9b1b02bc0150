// FSDP2 with torchao's float8 all-gather sends each weight shard as FP8: one byte a value and a scale.
// Each rank holds one shard of a weight whose 32-value blocks differ in spread; after a few optimizer
// steps one value jumps (an outlier). The rank gathers the whole weight as fp32 (exact), bf16, and FP8
// with three ways of finding the scale: tensorwise current scaling (torchao's default), delayed scaling
// from an amax history (Transformer Engine's DelayedScaling) and MXFP8 (one power-of-two scale per 32
// values, OCP MX v1.0). It prints the bytes it sent, the time, and the error against the fp32 gather.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const N = dist.worldSize,
  shard = 4096,
  block = 32,
  steps = 4;

/** An FP8 format: mantissa bits, exponent bias, largest finite value (E4M3 has no infinity; E5M2 is IEEE-like). */
interface Fp8 {
  name: string;
  mantissa: number;
  bias: number;
  max: number;
}
const E4M3: Fp8 = { name: 'E4M3', mantissa: 3, bias: 7, max: 448 };
const E5M2: Fp8 = { name: 'E5M2', mantissa: 2, bias: 15, max: 57344 };

/** Round half to even, for a ≥ 0. */
function roundEven(a: number): number {
  const f = Math.floor(a),
    d = a - f;
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
}
/** The 8-bit code of x: saturated at ±max (torchao's to_fp8_saturated), rounded to nearest even, subnormals kept. */
function encode(x: number, f: Fp8): number {
  const sign = x < 0 ? 0x80 : 0;
  const a = Math.min(Math.abs(x), f.max);
  if (a === 0) return sign;
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--; // log2 may land on the wrong side of a power of two
  if (2 ** (e + 1) <= a) e++;
  e = Math.max(e, 1 - f.bias); // below the smallest normal exponent: a subnormal, same step
  let q = roundEven(a / 2 ** (e - f.mantissa)); // exact: the divisor is a power of two
  if (q === 2 ** (f.mantissa + 1)) [e, q] = [e + 1, q / 2]; // rounded up into the next binade
  if (q < 2 ** f.mantissa) return sign | q; // subnormal: exponent field 0
  return sign | ((e + f.bias) << f.mantissa) | (q - 2 ** f.mantissa);
}
/** The value an 8-bit code stands for. */
function decode(code: number, f: Fp8): number {
  const sign = code & 0x80 ? -1 : 1,
    exp = (code & 0x7f) >> f.mantissa,
    man = code & (2 ** f.mantissa - 1);
  if (exp === 0) return sign * man * 2 ** (1 - f.bias - f.mantissa);
  return sign * (1 + man / 2 ** f.mantissa) * 2 ** (exp - f.bias);
}
const fp8 = (x: number, f: Fp8) => decode(encode(x, f), f);
// The corner cases the OCP spec and the FP8 paper (Micikevicius et al. 2022, Table 1) fix.
const corners = [
  fp8(448, E4M3) === 448,
  fp8(1000, E4M3) === 448, // saturates instead of overflowing
  fp8(464, E4M3) === 448,
  fp8(2 ** -9, E4M3) === 2 ** -9, // smallest subnormal
  fp8(2 ** -10, E4M3) === 0, // a tie between 0 and 2^-9: to even, 0
  fp8(1.0625, E4M3) === 1, // a tie between 1 and 1.125: to even, 1
  fp8(1.1875, E4M3) === 1.25, // a tie between 1.125 and 1.25: to even, 1.25
  fp8(57344, E5M2) === 57344 && fp8(1e6, E5M2) === 57344,
  fp8(2 ** -16, E5M2) === 2 ** -16,
  fp8(2 ** -6 * 0.875, E4M3) === 2 ** -6 * 0.875, // largest subnormal
  fp8(-3.3, E4M3) === -3.25,
];
console.log(
  `E4M3 and E5M2 round, saturate and keep subnormals as the spec says: ${corners.every(Boolean)}`,
);

// The weight after `step` optimizer steps: blocks of spread 0.00001 to 0.1 that grow a little every
// step; at the last step one value of rank 0's shard jumps to 4× the weight's earlier largest value.
const spread = tf.pow(10, tf.randomUniform([shard / block, 1], -5, -1, 'float32', 50 + dist.rank));
const base = tf.randomNormal([shard / block, block], 0, 1, 'float32', 60 + dist.rank).mul(spread);
async function weightAt(step: number): Promise<Float32Array> {
  const w = (await base.mul(1 + 0.05 * step).data()).slice() as Float32Array;
  if (step === steps - 1 && dist.rank === 0) w[0] = 4 * amaxHistory[amaxHistory.length - 1]!;
  return w;
}

// Charge each gather as a 7e9-parameter model's weights (bytes as sent), and the amax all-reduce as
// one fp32 value per weight matrix of a 32-layer model (7 matmul weights a layer); real time: no charge.
const gatherCharge = () =>
  dist.simulation?.chargeAs(
    { params: 7e9, tokensPerStep: 1, bytesPerElement: 4 },
    { params: shard * N, tokensPerStep: 1 },
  );
const amaxCharge = () =>
  dist.simulation?.chargeAs(
    { params: 32 * 7, tokensPerStep: 1, bytesPerElement: 4 },
    { params: 1, tokensPerStep: 1 },
  );
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;
const sent = () =>
  Object.values(dist.commStats()).reduce((total, kind) => total + (kind?.sent ?? 0), 0);
async function measure(f: () => Promise<Float32Array>) {
  const [b, t] = [sent(), await clock()];
  const out = await f();
  return { out, bytes: sent() - b, s: (await clock()) - t };
}
/** The whole weight's largest |value|: one all-reduce (max), as torchao and Transformer Engine do. */
async function globalAmax(w: Float32Array): Promise<number> {
  amaxCharge();
  const local = tf.tensor1d(w).abs().max().reshape([1]);
  const amax = (await (await dist.allReduce(local, { op: 'max' })).data())[0]!;
  gatherCharge();
  return amax;
}
/** Bytes travel four to an int32; the gathered int32s are read back as bytes. */
async function gatherBytes(bytes: Uint8Array): Promise<Uint8Array> {
  const t = tf.tensor1d(new Int32Array(bytes.slice().buffer), 'int32');
  return new Uint8Array((await (await dist.allGather(t)).data()).slice().buffer);
}

/** Tensorwise FP8: scale = max / amax in fp32 (torchao amax_to_scale), cast saturated, gather, divide. */
async function gatherTensorwise(w: Float32Array, f: Fp8, amax: number) {
  const scale = Math.fround(f.max / Math.max(amax, 1e-12));
  const codes = Uint8Array.from(w, (v) => encode(Math.fround(v * scale), f));
  const all = await gatherBytes(codes);
  // Saturated: beyond max by more than half its top step, so rounding alone would not have given max.
  // Counted over the whole weight, so every rank prints the same verdict.
  const limit = f.max + 2 ** (Math.floor(Math.log2(f.max)) - f.mantissa - 1);
  const clipped = exact.out.filter((v) => Math.abs(Math.fround(v * scale)) > limit).length;
  return { out: Float32Array.from(all, (c) => Math.fround(decode(c, f) / scale)), clipped };
}
/**
 * MXFP8 (OCP MX v1.0 §6.3, torchao to_mx's default FLOOR mode): each block of 32 gets the scale
 * 2^(⌊log2 amax⌋ − 8), 8 being E4M3's largest exponent, stored as one E8M0 byte (exponent + 127);
 * values are divided by it and cast saturated. Codes and scales travel in one gather.
 */
async function gatherMx(w: Float32Array) {
  const scales = new Uint8Array(shard / block);
  const codes = new Uint8Array(shard);
  for (let b = 0; b < shard / block; b++) {
    const amax = Math.max(...w.subarray(b * block, (b + 1) * block).map(Math.abs));
    const exp = amax === 0 ? -127 : Math.max(-127, Math.floor(Math.log2(amax)) - 8);
    scales[b] = exp + 127;
    for (let i = b * block; i < (b + 1) * block; i++) codes[i] = encode(w[i]! / 2 ** exp, E4M3);
  }
  const all = await gatherBytes(new Uint8Array([...codes, ...scales]));
  const per = shard + shard / block;
  return Float32Array.from({ length: N * shard }, (_, i) => {
    const [r, j] = [Math.floor(i / shard), i % shard];
    return (
      decode(all[r * per + j]!, E4M3) * 2 ** (all[r * per + shard + Math.floor(j / block)]! - 127)
    );
  });
}
async function gatherBf16(w: Float32Array): Promise<Float32Array> {
  const u = new Uint32Array(w.slice().buffer);
  const b = Uint16Array.from(u, (v) => (v + 0x7fff + ((v >>> 16) & 1)) >>> 16);
  const all = new Uint16Array((await gatherBytes(new Uint8Array(b.buffer))).buffer);
  return new Float32Array(Uint32Array.from(all, (v) => v << 16).buffer);
}

// Delayed scaling keeps each step's amax (Transformer Engine: amax_history_len, "max" over the
// window) and casts this step with the scale the history gave: the outlier is not in it yet.
const amaxHistory: number[] = [];
gatherCharge();
for (let step = 0; step < steps - 1; step++)
  amaxHistory.push(await globalAmax(await weightAt(step)));
const w = await weightAt(steps - 1);
const exact = await measure(
  async () => new Float32Array((await (await dist.allGather(tf.tensor1d(w))).data()).slice()),
);
const norm = (a: ArrayLike<number>, from: number, to: number, minus?: Float32Array) => {
  let sum = 0;
  for (let i = from; i < to; i++) sum += (a[i]! - (minus ? minus[i]! : 0)) ** 2;
  return Math.sqrt(sum);
};
const relError = (a: Float32Array) =>
  norm(a, 0, a.length, exact.out) / norm(exact.out, 0, a.length);
/** The largest relative error of any block of 32: what one scale for the whole tensor does to small blocks. */
const worstBlock = (a: Float32Array) =>
  Math.max(
    ...Array.from(
      { length: a.length / block },
      (_, b) =>
        norm(a, b * block, (b + 1) * block, exact.out) /
        norm(exact.out, b * block, (b + 1) * block),
    ),
  );
const clippedBy: Record<string, number> = {};
const ways: [string, () => Promise<Float32Array>][] = [
  ['bf16', () => gatherBf16(w)],
  ...[E4M3, E5M2].map((f): [string, () => Promise<Float32Array>] => [
    `${f.name}, current tensorwise scale`,
    async () => {
      const r = await gatherTensorwise(w, f, await globalAmax(w));
      clippedBy[`current ${f.name}`] = r.clipped;
      return r.out;
    },
  ]),
  [
    'E4M3, delayed scale (amax history)',
    async () => {
      const r = await gatherTensorwise(w, E4M3, Math.max(...amaxHistory));
      clippedBy['delayed'] = r.clipped;
      amaxHistory.push(await globalAmax(w)); // after the cast, as Transformer Engine's reduce_amax
      return r.out;
    },
  ],
  [`MXFP8 E4M3, one E8M0 scale per ${block}`, () => gatherMx(w)],
];
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
const rows: Record<string, { bytes: number; error: number; worst: number }> = {};
if (dist.rank === 0) {
  console.log(
    dist.simulation
      ? 'times: virtual, on the simulated cluster, each gather charged as a 7e9-parameter model'
      : 'times: wall clock, measured on this machine',
  );
  console.log(`fp32: ${exact.bytes} bytes sent by this rank, ${ms(exact.s)}`);
}
for (const [name, gather] of ways) {
  const r = await measure(gather);
  rows[name] = { bytes: r.bytes, error: relError(r.out), worst: worstBlock(r.out) };
  if (dist.rank === 0)
    console.log(
      `${name}: ${r.bytes} bytes (${(r.bytes / exact.bytes).toFixed(3)}× fp32), ${ms(r.s)}, relative error ${rows[name].error.toExponential(1)}, worst block ${rows[name].worst.toExponential(1)}`,
    );
}
const [bf16, current, e5m2, delayed, mx] = ways.map(([name]) => rows[name]!);
// What the one-value amax all-reduce sent (it differs by rank: the runtime picks its algorithm by size).
const amaxBytes = delayed!.bytes - (N - 1) * shard;
console.log(
  `FP8 sends a quarter of fp32's bytes, half of bf16's, besides its amax all-reduce: ${current!.bytes - amaxBytes === exact.bytes / 4 && 2 * (current!.bytes - amaxBytes) === bf16!.bytes}`,
);
console.log(
  `MXFP8 sends ${block + 1} bytes per ${block} values and needs no amax all-reduce: ${mx!.bytes === ((N - 1) * shard * (block + 1)) / block}`,
);
console.log(`E4M3 loses less than E5M2 on weights: ${current!.error < e5m2!.error}`);
console.log(
  `delayed scaling clips the new outlier (${clippedBy['delayed']} values saturated, ${clippedBy['current E4M3']} with the current scale): ${clippedBy['delayed']! > 0 && clippedBy['current E4M3'] === 0}`,
);
console.log(
  `one scale per ${block} values keeps small blocks out of the subnormals (worst block ${mx!.worst.toFixed(2)} against ${current!.worst.toFixed(2)}): ${mx!.worst < current!.worst}`,
);
console.log(
  `bf16 still beats every FP8 recipe: ${bf16!.error < Math.min(current!.error, delayed!.error, mx!.error)}`,
);
