// Exercise 2: does bucketing help? All-reduce 96 small gradients one by one, then packed into
// buckets of a few KB, then as one flat tensor, and time each on this machine.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const tensors = 96,
  elements = 256,
  repeats = 5,
  bucketBytes = 16 * 1024;
const grads = Array.from({ length: tensors }, (_, i) =>
  tf.fill([elements], dist.rank + i / tensors),
);

async function timed(label: string, run: () => Promise<tf.Tensor[]>): Promise<tf.Tensor[]> {
  await dist.barrier();
  let out: tf.Tensor[] = [];
  const start = performance.now();
  for (let r = 0; r < repeats; r++) {
    out.forEach((t) => t.dispose());
    out = await run();
  }
  const ms = (performance.now() - start) / repeats;
  console.log(`${label.padEnd(28)} ${ms.toFixed(2)} ms per step, ${out.length} all-reduce calls`);
  return out;
}

const oneByOne = await timed('one all-reduce per tensor', () =>
  Promise.all(grads.map((g) => dist.allReduce(g, { op: 'avg' }))),
);

// Pack gradients in reverse order (the order backward produces them) until a bucket is full.
const perBucket = Math.max(1, Math.floor(bucketBytes / (elements * 4)));
const bucketed = await timed(`buckets of ${bucketBytes / 1024} KiB`, async () => {
  const reversed = [...grads].reverse(),
    out: tf.Tensor[] = [];
  for (let i = 0; i < reversed.length; i += perBucket) {
    const flat = tf.concat(reversed.slice(i, i + perBucket));
    const reduced = await dist.allReduce(flat, { op: 'avg' });
    out.push(reduced);
    flat.dispose();
  }
  return out;
});
const flatAll = await timed('one flat tensor', async () => {
  const flat = tf.concat(grads);
  const reduced = await dist.allReduce(flat, { op: 'avg' });
  flat.dispose();
  return [reduced];
});

// Same numbers either way: unpack the buckets and compare with the per-tensor results.
const unpacked = tf.concat(bucketed).reshape([tensors, elements]).reverse(0);
const direct = tf.stack(oneByOne);
const diff = (await unpacked.sub(direct).abs().max().data())[0]!;
console.log(
  `rank ${dist.rank}: buckets give the same averaged gradients: ${diff === 0 && flatAll.length === 1}`,
);
