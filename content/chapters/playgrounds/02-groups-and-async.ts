// Sub-groups, asynchronous handles and the barrier: the c10d features beyond the default group.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize,
  r = dist.rank;

// Every rank creates both groups, in the same order, like torch.distributed.new_group.
const low = dist.newGroup(Array.from({ length: Math.ceil(n / 2) }, (_, i) => i));
const high = dist.newGroup(Array.from({ length: n - low.size }, (_, i) => low.size + i));
const mine = low.rank >= 0 ? low : high;
const groupSum = await dist.allReduce(tf.scalar(r), { op: 'sum', group: mine });
const expected = mine.ranks.reduce((a, b) => a + b, 0);
console.log(
  `rank ${r} in group [${mine.ranks}] (group rank ${mine.rank}): sum ${(await groupSum.data())[0]}`,
);
console.log(`sub-group sums correct: ${(await groupSum.data())[0] === expected}`);

// async: true returns a handle at once; the rank keeps computing while the all-reduce is in flight.
// Rank 0 is late on purpose, as a rank still finishing its backward pass would be. The others have
// useful work to do meanwhile: a few matrix products standing in for the rest of their backward pass.
const lateMs = 400;
const product = async () => {
  const s = tf.tidy(() =>
    tf.matMul(tf.randomNormal([128, 128]), tf.randomNormal([128, 128])).sum(),
  );
  await s.data();
  s.dispose();
};
// Warm the kernels up first (the first products compile and allocate and are far slower), then size
// the work by the clock rather than by a count: products until three quarters of rank 0's delay have passed,
// so a slow or fast warm-up cannot leave the waiters with almost no work to overlap.
for (let i = 0; i < 3; i++) await product();
// These ranks run collectives on their own thread, so the work yields between products to let the
// all-reduce advance. On a GPU, NCCL runs on its own stream and needs no such yield.
const yieldToCollectives = () => new Promise((resolve) => setTimeout(resolve, 0));
const work = async () => {
  const start = performance.now();
  do {
    await product();
    await yieldToCollectives();
  } while (performance.now() - start < (3 * lateMs) / 4);
};
const grads = tf.fill([1 << 15], r + 1);
const total = (n * (n + 1)) / 2;

// First blocking: the call holds the rank until the all-reduce is done, then the work starts.
await dist.barrier();
if (r === 0) await new Promise((resolve) => setTimeout(resolve, lateMs));
let t = performance.now();
await dist.allReduce(grads, { op: 'sum' });
const blockedMs = performance.now() - t;
await work();

// Then asynchronous: start the all-reduce, do the same work while it waits for rank 0, then wait().
await dist.barrier();
if (r === 0) await new Promise((resolve) => setTimeout(resolve, lateMs));
const handle = dist.allReduce(grads, { op: 'sum', async: true });
const pendingWhileWorking = !handle.isCompleted();
t = performance.now();
// Rank 0's lateness stands for its own remaining work; it has nothing left to overlap, and it waits at
// once so the all-reduce it holds up can finish (collectives progress on each rank's own thread).
if (r !== 0) await work();
const workMs = performance.now() - t;
t = performance.now();
const result = await handle.wait(); // like handle.wait() in PyTorch: only now is the result safe to use
const waitMs = performance.now() - t;
console.log(
  `rank ${r}: the blocking all-reduce held it ${blockedMs.toFixed(0)} ms; started async${pendingWhileWorking ? ' (still in flight when the work began)' : ''}, ${workMs.toFixed(0)} ms of work, then wait() held it ${waitMs.toFixed(0)} ms`,
);
console.log(
  `async all-reduce correct after wait(): ${handle.isCompleted() && (await result.data())[0] === total}`,
);
// The ranks kept waiting by rank 0 did their work inside that wait, so wait() held them for less time.
const gained = await dist.allGather(tf.tensor1d([blockedMs - waitMs]));
const gainedByWaiters = Array.from(await gained.data()).filter((_, rank) => rank !== 0);
console.log(
  `ranks that waited for rank 0 overlapped their work with it: ${gainedByWaiters.every((ms) => ms > 0)}`,
);

// A barrier: nobody passes until everyone has arrived. Rank 0 arrives late, on purpose.
await dist.barrier();
if (r === 0) await new Promise((resolve) => setTimeout(resolve, lateMs));
const arrived = Date.now();
const arrivedAt = performance.now(); // start the clock on arrival: rank 0's own delay is not waiting
await dist.barrier();
const waitedMs = performance.now() - arrivedAt;
const left = Date.now();
console.log(`rank ${r} waited ${waitedMs.toFixed(0)} ms at the barrier`);
// Rank 0 shares its arrival time (split in two so float32 keeps every millisecond); no rank may have left before it.
const split = await dist.broadcast(tf.tensor1d([Math.floor(arrived / 1e6), arrived % 1e6]), {
  src: 0,
});
const [hi, lo] = await split.data();
console.log(`barrier held every rank until rank 0 arrived: ${left >= hi! * 1e6 + lo!}`);
const waits = Array.from(await (await dist.allGather(tf.tensor1d([waitedMs]))).data());
console.log(
  `the late rank 0 waited least: ${n === 1 || waits.slice(1).every((ms) => ms > waits[0]!)}`,
);
