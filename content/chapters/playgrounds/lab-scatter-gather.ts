// scatter: the src rank splits a tensor along its first axis and sends row k to rank k.
// gather: the reverse; dst receives every rank's tensor stacked along a new first axis.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize;
// On rank 0: a batch of n rows, row k = [k, k, k]. Other ranks pass null and the slice shape.
const batch = dist.rank === 0 ? tf.tensor2d(Array.from({ length: n }, (_, k) => [k, k, k])) : null;
const myRows = await dist.scatter(batch, { src: 0, shape: [3] });
console.log('scattered to me:', Array.from(await myRows.data()));

const squared = myRows.square();
const all = await dist.gather(squared, { dst: 0 });
if (all) console.log('gathered on rank 0:', JSON.stringify(await all.array()));
const expected = Array.from({ length: n }, (_, k) => [k * k, k * k, k * k]);
console.log(
  `scatter/gather ok: ${all ? JSON.stringify(await all.array()) === JSON.stringify(expected) : (await myRows.data())[0] === dist.rank}`,
);
