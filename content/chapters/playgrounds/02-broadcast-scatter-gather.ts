// Data-parallel inference with the one-to-many and many-to-one collectives:
// broadcast the weights, scatter the batch, compute locally, gather the outputs, reduce a metric.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize,
  rowsPerRank = 3,
  features = 4,
  outputs = 2;

// Only rank 0 "loads the checkpoint"; the others start with zeros of the right shape.
const loaded =
  dist.rank === 0
    ? tf.randomNormal([features, outputs], 0, 1, 'float32', 7)
    : tf.zeros([features, outputs]);
const W = await dist.broadcast(loaded, { src: 0 });

// Rank 0 holds the whole batch as [ranks, rows, features]; scatter hands slice k to rank k.
const batch =
  dist.rank === 0 ? tf.randomNormal([n, rowsPerRank, features], 0, 1, 'float32', 11) : null;
const myRows = await dist.scatter(batch, { src: 0, shape: [rowsPerRank, features] });

const myOut = tf.matMul(myRows, W); // no communication during the forward pass
const outs = await dist.gather(myOut, { dst: 0 }); // [ranks, rows, outputs] on rank 0, null elsewhere

// A metric summed over all ranks lands on rank 0 only: that is reduce, not all-reduce.
const localSum = myOut.square().sum();
const total = await dist.reduce(localSum, { dst: 0, op: 'sum' });

let ok = 0;
if (dist.rank === 0 && outs && batch) {
  const single = tf.matMul(batch.reshape([n * rowsPerRank, features]), W); // one device, whole batch
  const gap = (
    await outs
      .reshape([n * rowsPerRank, outputs])
      .sub(single)
      .abs()
      .max()
      .data()
  )[0]!;
  const metricGap = Math.abs((await total.data())[0]! - (await single.square().sum().data())[0]!);
  console.log(
    `gathered ${outs.shape.join('×')} outputs; max gap to one device ${gap.toExponential(1)}`,
  );
  ok = gap < 1e-5 && metricGap < 1e-3 ? 1 : 0;
} else {
  console.log(
    `rank ${dist.rank} computed rows ${dist.rank * rowsPerRank}..${(dist.rank + 1) * rowsPerRank - 1}`,
  );
}
// Only rank 0 can check; one more broadcast tells every rank the verdict.
const verdict = await dist.broadcast(tf.tensor1d([ok]), { src: 0 });
console.log(`inference matches one device: ${(await verdict.data())[0] === 1}`);
