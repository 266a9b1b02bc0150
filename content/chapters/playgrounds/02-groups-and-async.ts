// Sub-groups, asynchronous handles and the barrier: the c10d features beyond the default group.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize, r = dist.rank;

// Every rank creates both groups, in the same order, like torch.distributed.new_group.
const low = dist.newGroup(Array.from({ length: Math.ceil(n / 2) }, (_, i) => i));
const high = dist.newGroup(Array.from({ length: n - low.size }, (_, i) => low.size + i));
const mine = low.rank >= 0 ? low : high;
const groupSum = await dist.allReduce(tf.scalar(r), { op: 'sum', group: mine });
const expected = mine.ranks.reduce((a, b) => a + b, 0);
console.log(`rank ${r} in group [${mine.ranks}] (group rank ${mine.rank}): sum ${(await groupSum.data())[0]}`);
console.log(`sub-group sums correct: ${(await groupSum.data())[0] === expected}`);

// async: true returns a handle at once; the reduction runs while this rank keeps computing.
const grads = tf.fill([1 << 15], r + 1);
const work = dist.allReduce(grads, { op: 'sum', async: true });
const busy = tf.matMul(tf.randomNormal([96, 96]), tf.randomNormal([96, 96])).sum();
await busy.data();
const result = await work.wait(); // like handle.wait() in PyTorch: only now is the result safe to use
const total = (n * (n + 1)) / 2;
console.log(`async all-reduce correct after wait(): ${work.isCompleted() && (await result.data())[0] === total}`);

// A barrier: nobody passes until everyone has arrived. Rank 0 arrives late, on purpose.
const t0 = performance.now();
if (r === 0) await new Promise((resolve) => setTimeout(resolve, 150));
const arrived = Date.now();
await dist.barrier();
const left = Date.now();
console.log(`rank ${r} waited ${(performance.now() - t0).toFixed(0)} ms at the barrier`);
// Rank 0 shares its arrival time (split in two so float32 keeps every millisecond); no rank may have left before it.
const split = await dist.broadcast(tf.tensor1d([Math.floor(arrived / 1e6), arrived % 1e6]), { src: 0 });
const [hi, lo] = await split.data();
console.log(`barrier held every rank until rank 0 arrived: ${left >= hi! * 1e6 + lo!}`);
