// ZeRO-3 all-gathers every weight before forward and again before backward. ZeRO++ sends those weights
// as int8 with one scale per block (qwZ) and keeps a second copy of each node's weights inside the node, so
// the backward all-gather never leaves it (hpZ). Each rank holds one shard whose blocks differ in size,
// as the layers of a flat parameter do; it gathers the whole parameter five ways and prints the bytes
// it sent, the time the gathers took and the error against the exact fp32 gather.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const N = dist.worldSize,
  shard = 8192,
  block = 512,
  blocks = shard / block;
// Block b of this rank's shard has its own spread, from 0.002 to 0.1: one scale for the whole shard wastes levels.
const spread = tf.randomUniform([blocks, 1], 0.002, 0.1, 'float32', 40 + dist.rank);
const mine = tf.randomNormal([blocks, block], 0, 1, 'float32', 30 + dist.rank).mul(spread);
// Charge each gather as a 7e9-parameter model's weights (bytes as sent); real time: no charge.
dist.simulation?.chargeAs(
  { params: 7e9, tokensPerStep: 1, bytesPerElement: 4 },
  { params: shard * N, tokensPerStep: 1 },
);
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;
const sent = () =>
  Object.values(dist.commStats()).reduce((total, kind) => total + (kind?.sent ?? 0), 0);
async function measure(f: () => Promise<tf.Tensor>) {
  const [b, t] = [sent(), await clock()];
  const out = await f();
  return { out, bytes: sent() - b, s: (await clock()) - t };
}
const int32 = (bytes: ArrayBufferView) =>
  tf.tensor1d(
    new Int32Array(bytes.buffer.slice(0), bytes.byteOffset, bytes.byteLength / 4),
    'int32',
  );
const bytesOf = async (t: tf.Tensor) => (await t.data()).slice().buffer;

/** Gathers `t` with bf16 on the wire: rounded to nearest even, two values to an int32. */
async function gatherBf16(
  t: tf.Tensor,
  group?: ReturnType<typeof dist.newGroup>,
): Promise<tf.Tensor> {
  const u = new Uint32Array((await t.data()).slice().buffer);
  const b = Uint16Array.from(u, (v) => (v + 0x7fff + ((v >>> 16) & 1)) >>> 16);
  const all = new Uint16Array(
    await bytesOf(await dist.allGather(int32(b), group ? { group } : {})),
  );
  return tf.tensor1d(new Float32Array(Uint32Array.from(all, (v) => v << 16).buffer));
}

/**
 * Symmetric integer quantization with one fp32 scale per group of `group` values, as DeepSpeed's
 * CUDAQuantizer (partition_parameters.py) does for qwZ, in the textbook variant: scale = max|w| / (2^(bits−1) − 1),
 * q = round(w / scale). DeepSpeed's kernel (csrc/includes/quantization_utils.h) uses max|w| / 2^(bits−1) and clamps
 * to [−2^(bits−1), 2^(bits−1) − 1].
 * int8 travels four to an int32, int4 two to a byte (offset by 8); the scales travel in a second all-gather.
 */
async function gatherQuantized(bits: 8 | 4, group: number): Promise<tf.Tensor> {
  const levels = 2 ** (bits - 1) - 1;
  const w = mine.reshape([shard / group, group]);
  const scale = w.abs().max(1, true).div(levels);
  const q = await w.div(scale).round().clipByValue(-levels, levels).data();
  const packed =
    bits === 8
      ? Int8Array.from(q)
      : Uint8Array.from(
          { length: shard / 2 },
          (_, i) => q[2 * i]! + 8 + ((q[2 * i + 1]! + 8) << 4),
        );
  const [allQ, allScales] = [await dist.allGather(int32(packed)), await dist.allGather(scale)];
  const raw = await bytesOf(allQ);
  const values =
    bits === 8
      ? Float32Array.from(new Int8Array(raw))
      : Float32Array.from({ length: N * shard }, (_, i) => {
          const byte = new Uint8Array(raw)[i >> 1]!;
          return ((i & 1 ? byte >> 4 : byte & 15) - 8) as number;
        });
  return tf
    .tensor2d(values, [(N * shard) / group, group])
    .mul(allScales.reshape([-1, 1]))
    .reshape([-1]);
}

const exact = await measure(async () => (await dist.allGather(mine)).reshape([N * shard]));
const relError = async (t: tf.Tensor) =>
  (await t.sub(exact.out).norm().div(exact.out.norm()).data())[0]!;
const ways: [string, () => Promise<tf.Tensor>][] = [
  ['bf16', () => gatherBf16(mine)],
  ['int8, one scale per shard', () => gatherQuantized(8, shard)],
  [`int8, one scale per ${block} (qwZ)`, () => gatherQuantized(8, block)],
  [`int4, one scale per ${block}`, () => gatherQuantized(4, block)],
];
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
const rows: { name: string; bytes: number; error: number }[] = [];
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
  const error = await relError(r.out);
  rows.push({ name, bytes: r.bytes, error });
  if (dist.rank === 0)
    console.log(
      `${name}: ${r.bytes} bytes (${(r.bytes / exact.bytes).toFixed(3)}× fp32), ${ms(r.s)}, relative error ${error.toExponential(1)}`,
    );
}
const [, perShard, perBlock] = rows;
console.log(
  `one scale per block: ${(perShard!.error / perBlock!.error).toFixed(1)}× less error for ${perBlock!.bytes - perShard!.bytes} more bytes`,
);

// hpZ: after the forward gather each rank keeps its node's slice of the bf16 weights (a secondary shard,
// 1/gpusPerNode of the model instead of 1/N), so the backward gather runs inside the node only.
const gpusPerNode = dist.simulation?.cluster.gpusPerNode ?? Math.min(2, N);
const node = Math.floor(dist.rank / gpusPerNode);
const nodeGroup = [...Array(N / gpusPerNode).keys()].map((k) =>
  dist.newGroup([...Array(gpusPerNode).keys()].map((i) => k * gpusPerNode + i)),
)[node]!;
const bf16Full = await gatherBf16(mine); // forward: across every rank
const secondary = bf16Full.reshape([gpusPerNode, -1]).slice([nodeGroup.rank, 0], [1, -1]);
const flat = await measure(() => gatherBf16(mine));
const hpz = await measure(() => gatherBf16(secondary, nodeGroup));
if (dist.rank === 0)
  console.log(
    `backward gather in bf16: ${ms(flat.s)} across all ${N} ranks, ${ms(hpz.s)} inside a node of ${gpusPerNode} (hpZ), which holds a ${secondary.size * 2}-byte secondary shard per rank`,
  );
const same = (await hpz.out.sub(bf16Full).abs().max().data())[0] === 0;
console.log(`hpZ's backward gather returns the same weights: ${same}`);
console.log(`hpZ's backward gather is faster: ${hpz.s < flat.s}`);
