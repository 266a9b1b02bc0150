// Exercise: build a ring all-reduce from send and recv, then compare it with dist.allReduce.
// The reduce-scatter phase is written for you; the all-gather phase is yours (see TODO).
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize,
  r = dist.rank;
const next = (r + 1) % n,
  prev = (r - 1 + n) % n;
const mod = (i: number) => ((i % n) + n) % n;

async function ringAllReduce(x: tf.Tensor1D): Promise<tf.Tensor1D> {
  const chunks = tf.split(x, n); // x.size must be a multiple of n here
  // Reduce-scatter: n − 1 steps. At step s, send chunk r − s to the right and add chunk r − s − 1 from the left.
  for (let s = 0; s < n - 1; s++) {
    const out = mod(r - s),
      inc = mod(r - s - 1);
    const sending = dist.send(chunks[out]!, { dst: next, async: true });
    const got = await dist.recv(chunks[inc]!.shape, { src: prev });
    await sending.wait();
    chunks[inc] = chunks[inc]!.add(got);
  }
  // Chunk r + 1 now holds the sum over all ranks: check it against the library's all-reduce.
  const truth = tf.split(await dist.allReduce(x, { op: 'sum' }), n)[mod(r + 1)]!;
  const rsGap = (await chunks[mod(r + 1)]!.sub(truth).abs().max().data())[0]!;
  console.log(`rank ${r}: reduce-scatter phase correct: ${rsGap === 0}`);
  // TODO all-gather: n − 1 more steps. At step s, send chunk r + 1 − s to the right and
  // REPLACE (not add) chunk r − s with what arrives from the left. Then return tf.concat(chunks).
  return tf.concat(chunks) as tf.Tensor1D;
}

const x = tf.range(0, 4 * n).add(10 * r) as tf.Tensor1D;
const mine = await ringAllReduce(x);
const theirs = await dist.allReduce(x, { op: 'sum' });
const gap = (await mine.sub(theirs).abs().max().data())[0]!;
console.log(
  `rank ${r}: ring [${Array.from(await mine.data()).slice(0, 4)} …] vs dist.allReduce [${Array.from(await theirs.data()).slice(0, 4)} …]`,
);
console.log(`ring all-reduce matches dist.allReduce: ${gap === 0}`);
