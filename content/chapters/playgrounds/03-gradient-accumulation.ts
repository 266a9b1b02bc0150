// Gradient accumulation: each rank runs k micro-batches, sums the scaled gradients locally and
// all-reduces once. The update equals one step on the whole global batch, at 1/k of the traffic.
import * as tf from '@tensorflow/tfjs';
import { dist, commBytes, commBytesSince } from 'ranks';

const n = dist.worldSize,
  r = dist.rank,
  k = 3,
  micro = 4,
  d = 8;
const globalBatch = micro * n * k; // per-rank micro-batch × ranks × accumulation steps
const X = tf.randomNormal([globalBatch, d], 0, 1, 'float32', 31);
const Y = tf.randomNormal([globalBatch, 1], 0, 1, 'float32', 32);
const W = tf.randomNormal([d, 1], 0, 1, 'float32', 33);
const grad = (x: tf.Tensor, y: tf.Tensor) =>
  tf.grad((w: tf.Tensor) => tf.losses.meanSquaredError(y, x.matMul(w)) as tf.Scalar)(W);
const microBatch = (step: number) => {
  const start = (step * n + r) * micro; // micro-batch `step` of this rank
  return grad(X.slice([start, 0], [micro, d]), Y.slice([start, 0], [micro, 1]));
};

// The wasteful way: all-reduce after every micro-batch. Same result, k all-reduces.
let before = commBytes(); // bytes this rank has sent so far, counted by the runtime's collectives
let eager = tf.zerosLike(W),
  eagerCalls = 0;
for (let step = 0; step < k; step++) {
  eager = eager.add((await dist.allReduce(microBatch(step), { op: 'avg' })).div(k));
  eagerCalls++;
}
const eagerBytes = commBytesSince(before).allReduce ?? 0;

// Accumulate locally (scaled by 1/k so the result is a mean, not a sum), then all-reduce once.
before = commBytes();
let accumulated = tf.zerosLike(W),
  onceCalls = 0;
for (let step = 0; step < k; step++) accumulated = accumulated.add(microBatch(step).div(k));
const synced = await dist.allReduce(accumulated, { op: 'avg' });
onceCalls++;
const onceBytes = commBytesSince(before).allReduce ?? 0;

const reference = grad(X, Y); // one device, the whole global batch at once
const gap = (await synced.sub(reference).abs().max().data())[0]!;
const eagerGap = (await eager.sub(reference).abs().max().data())[0]!;
console.log(
  `rank ${r}: ${k} micro-batches of ${micro} rows, global batch ${globalBatch}, gap ${gap.toExponential(1)} (per-micro-batch all-reduce: ${eagerGap.toExponential(1)})`,
);
console.log(
  `rank ${r}: all-reduce calls ${eagerCalls} → ${onceCalls}; bytes sent by all-reduce (runtime counter) ${eagerBytes} → ${onceBytes}`,
);
console.log(`accumulated gradient matches the full global batch: ${gap < 1e-5 && eagerGap < 1e-5}`);
// On one rank nothing is sent at all, so there is nothing to divide.
console.log(
  `accumulating sends ${k}× fewer all-reduce bytes: ${n === 1 ? eagerBytes === 0 && onceBytes === 0 : eagerBytes === k * onceBytes && onceBytes > 0}`,
);
