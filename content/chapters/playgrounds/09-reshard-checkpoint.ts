// A sharded checkpoint saved at world 4 and loaded at world 2, the way PyTorch Distributed Checkpoint
// does it: every rank writes only its own shard plus where it sits in the full tensor (metadata); a
// loader at another world size works out which saved pieces overlap the shard it now owns and reads
// only those. Here the "storage" is an in-memory map every rank can read; with DCP it is a directory.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const psi = 1001; // not a multiple of 4 or 2: shards are uneven and old and new boundaries do not line up
const range = (world: number, r: number) => {
  const size = Math.ceil(psi / world);
  return { start: Math.min(psi, r * size), end: Math.min(psi, (r + 1) * size) };
};

// Training state at world 4: each rank holds one contiguous shard of the flat parameters (FSDP-style).
if (dist.worldSize !== 4) throw new Error('this program saves at world 4: run it with world={4}');
const weights = tf.randomNormal([psi], 0, 1, 'float32', 1234); // stands in for the trained parameters
const own = range(4, dist.rank);
const myShard = weights.slice([own.start], [own.end - own.start]);

// save(): each rank contributes { file, offset, length } metadata and its bytes; nobody gathers the model.
interface Piece {
  from: number;
  start: number;
  data: Float32Array;
}
const metadata = await dist.allGather(tf.tensor1d([own.start, own.end], 'int32'));
const bytes = await dist.allGather(tf.pad(myShard, [[0, Math.ceil(psi / 4) - myShard.size]])); // equal-size pieces for the collective
const meta = await metadata.data(),
  all = (await bytes.data()) as Float32Array,
  stride = Math.ceil(psi / 4);
const storage: Piece[] = Array.from({ length: 4 }, (_, r) => ({
  from: r,
  start: meta[2 * r]!,
  data: all.slice(r * stride, r * stride + meta[2 * r + 1]! - meta[2 * r]!),
}));
console.log(`rank ${dist.rank} saved __${dist.rank}_0.distcp: elements [${own.start}, ${own.end})`);

// load() at world 2. Two independent "jobs" of 2 ranks each ({0,1} and {2,3}) both restore the checkpoint.
const jobs = [dist.newGroup([0, 1]), dist.newGroup([2, 3])]; // every rank creates every group, in the same order
const job = jobs[dist.rank < 2 ? 0 : 1]!;
const want = range(2, job.rank);
const restored = new Float32Array(want.end - want.start);
const reads: string[] = [];
for (const piece of storage) {
  const start = Math.max(want.start, piece.start),
    end = Math.min(want.end, piece.start + piece.data.length);
  if (start >= end) continue; // this saved shard does not overlap ours: not read at all
  restored.set(piece.data.subarray(start - piece.start, end - piece.start), start - want.start);
  reads.push(`rank ${piece.from}'s [${start}, ${end})`);
}
console.log(
  `rank ${dist.rank} = rank ${job.rank} of 2 owns [${want.start}, ${want.end}), reads ${reads.join(' + ')}`,
);

// Check: the world-2 job's shards, gathered, are bit-for-bit the world-4 weights.
const padded = tf.pad(tf.tensor1d(restored), [[0, Math.ceil(psi / 2) - restored.length]]);
const whole = (await dist.allGather(padded, { group: job })).reshape([-1]).slice([0], [psi]);
const same = (await whole.data()).every((v, i) => Object.is(v, weights.dataSync()[i]));
const everyone = await dist.allReduce(tf.scalar(same ? 1 : 0), { op: 'min' });
console.log(
  `world 2 restores the world-4 checkpoint bit for bit: ${(await everyone.data())[0] === 1}`,
);
