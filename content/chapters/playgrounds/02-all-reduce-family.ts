// all-reduce, reduce-scatter and all-gather, and the identity that links them:
// all-reduce = reduce-scatter followed by all-gather.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize,
  r = dist.rank;

// Rank r contributes [1 + 2r, 2 + 2r]; the sums are n² and n² + n.
const x = tf.tensor1d([1 + 2 * r, 2 + 2 * r]);
const summed = await dist.allReduce(x, { op: 'sum' });
console.log(
  `rank ${r}: [${Array.from(await x.data())}] -> all-reduce sum [${Array.from(await summed.data())}]`,
);
const formula = [n * n, n * n + n];
console.log(
  `sum equals [n², n² + n]: ${JSON.stringify(Array.from(await summed.data())) === JSON.stringify(formula)}`,
);

// A longer vector: reduce-scatter leaves each rank one fully reduced chunk of length 8 / n...
const v = tf.range(0, 8 * n).add(100 * r);
const myChunk = await dist.reduceScatter(v, { op: 'sum' });
// ...and all-gather puts the chunks back together on every rank.
const stacked = await dist.allGather(myChunk);
const composed = stacked.reshape([-1]);
const direct = await dist.allReduce(v, { op: 'sum' });
const same = (await composed.sub(direct).abs().max().data())[0] === 0;
console.log(
  `rank ${r} owns chunk ${r}: [${Array.from(await myChunk.data())
    .slice(0, 3)
    .join(', ')}, …]`,
);
console.log(`reduce-scatter then all-gather equals all-reduce: ${same}`);

// Other reduction operators work the same way.
const biggest = await dist.allReduce(tf.scalar(r), { op: 'max' });
const mean = await dist.allReduce(tf.scalar(r), { op: 'avg' });
console.log(`max rank ${(await biggest.data())[0]}, mean rank ${(await mean.data())[0]}`);
