// reduceScatter: sum the tensors of all ranks, but each rank keeps only its own slice of the sum.
// It is the first half of a ring all-reduce, and how ZeRO-2 shards gradients.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize;
// Every rank holds a vector of length 2n: element i equals i + rank.
const grads = tf.tensor(Array.from({ length: 2 * n }, (_, i) => i + dist.rank));
const mySlice = await dist.reduceScatter(grads); // elements [2·rank, 2·rank + 2) of the sum
const got = Array.from(await mySlice.data());
const rankSum = (n * (n - 1)) / 2;
const expected = [0, 1].map((j) => n * (2 * dist.rank + j) + rankSum);
console.log('my slice of the sum:', got);
console.log(`reduceScatter ok: ${got.every((v, j) => v === expected[j])}`);
