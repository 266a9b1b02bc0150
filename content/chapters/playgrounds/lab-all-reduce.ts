// allReduce: every rank ends with the same reduction (sum, avg, max, min, prod) of all inputs.
// Two real algorithms run underneath: 'ring' (reduce-scatter then all-gather) and 'two-shot'.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize;
const x = tf.tensor([dist.rank + 1, 2 * dist.rank]);
for (const algorithm of ['ring', 'two-shot'] as const) {
  const sum = await dist.allReduce(x, { op: 'sum', algorithm });
  console.log(algorithm, 'sum:', Array.from(await sum.data()));
}
const avg = await dist.allReduce(x, { op: 'avg' });
const max = await dist.allReduce(x, { op: 'max' });
console.log('avg:', Array.from(await avg.data()), 'max:', Array.from(await max.data()));
const total = (n * (n + 1)) / 2;
console.log(
  `allReduce ok: ${(await max.data())[0] === n && Math.abs((await avg.data())[0]! - total / n) < 1e-6}`,
);
