// Gradient clipping when each rank holds only a shard of the gradients (ZeRO-2/3, FSDP). Clipping
// needs the norm of the WHOLE gradient; a rank that clips by its own shard's norm scales each shard
// by a different factor. The fix, as torch's FSDP clip_grad_norm_ does it: all-reduce the sum of
// squared shard norms, take the root, and scale every shard by the same factor.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize,
  psi = 4096,
  shard = psi / n,
  maxNorm = 1.0;
const X = tf.randomNormal([16, psi], 0, 1, 'float32', 10 + dist.rank);
const Y = tf.randomNormal([16, 1], 0, 1, 'float32', 20 + dist.rank);
const w = tf.randomNormal([psi], 0, 0.05, 'float32', 1);
const grad = tf.grad(
  (v: tf.Tensor) => tf.losses.meanSquaredError(Y, X.matMul(v.reshape([psi, 1]))) as tf.Scalar,
);
const value = async (t: tf.Tensor) => (await t.data())[0]!;

// Each rank ends backward with only its shard of the averaged gradient, as ZeRO-2 or FSDP leave it.
const gShard = await dist.reduceScatter(grad(w), { op: 'avg' });

// Wrong: clip by the norm of the local shard.
const localNorm = await value(gShard.norm());
const wrong = gShard.mul(Math.min(1, maxNorm / (localNorm + 1e-6)));

// Right: total = (Σ_ranks ‖g_r‖²)^½, one all-reduce of one number.
const sumSq = await dist.allReduce(gShard.square().sum(), { op: 'sum' });
const totalNorm = Math.sqrt(await value(sumSq));
const right = gShard.mul(Math.min(1, maxNorm / (totalNorm + 1e-6)));

// One device, the whole averaged gradient, torch.nn.utils.clip_grad_norm_ semantics.
const full = (await dist.allGather(gShard)).reshape([psi]);
const fullNorm = await value(full.norm());
const reference = full.mul(Math.min(1, maxNorm / (fullNorm + 1e-6)));
const mine = reference.slice([dist.rank * shard], [shard]);
const gap = async (t: tf.Tensor) => value(t.sub(mine).abs().max());

const wrongGap = await dist.allReduce(tf.scalar(await gap(wrong)), { op: 'max' });
const rightGap = await dist.allReduce(tf.scalar(await gap(right)), { op: 'max' });
console.log(
  `rank ${dist.rank}: shard norm ${localNorm.toFixed(4)}, global norm ${totalNorm.toFixed(4)} (one device: ${fullNorm.toFixed(4)})`,
);
console.log(`clipping by the shard norm matches one device: ${(await value(wrongGap)) < 1e-6}`);
console.log(
  `clipping by the all-reduced norm matches one device: ${(await value(rightGap)) < 1e-6}`,
);
