// BatchNorm is the one layer data parallelism changes: with per-rank statistics each rank normalizes
// by the mean and variance of its own few rows. SyncBatchNorm all-gathers every rank's statistics instead.
import * as tf from '@tensorflow/tfjs';
import {
  dist,
  DDP,
  DistributedSampler,
  SGD,
  REFERENCE_MLP,
  SingleDeviceTrainer,
  referenceData,
  referenceModel,
} from 'ranks';

const { x, y } = referenceData();
const rows = new DistributedSampler(REFERENCE_MLP.rows, {
  numReplicas: dist.worldSize,
  rank: dist.rank,
  shuffle: false,
}).indices();
const xs = tf.gather(x, rows),
  ys = tf.gather(y, rows);
const lr = REFERENCE_MLP.lr.sgd,
  steps = REFERENCE_MLP.steps;

// The yardstick: one device, BatchNorm over all 16 rows.
const single = referenceModel({ batchNorm: 'local' });
const trainer = new SingleDeviceTrainer(single, new SGD({ lr }));
for (let s = 0; s < steps; s++) await trainer.trainStep(x, y);
const target = await single.snapshot();

async function train(batchNorm: 'local' | 'sync'): Promise<number> {
  const ddp = await DDP(referenceModel({ batchNorm }), {
    optimizer: new SGD({ lr }),
    broadcastBuffers: false,
  });
  for (let s = 0; s < steps; s++) await ddp.trainStep(xs, ys);
  const mine = await ddp.snapshot();
  return Math.max(
    ...Object.keys(target).map((k) =>
      Math.max(...mine[k]!.map((v, i) => Math.abs(v - target[k]![i]!))),
    ),
  );
}

const local = await train('local');
const synced = await train('sync');
console.log(`rank ${dist.rank} holds ${rows.length} of ${REFERENCE_MLP.rows} rows`);
console.log(
  `per-rank BatchNorm: max |w - w_single| = ${local.toExponential(2)}, matches: ${local < 1e-5}`,
);
console.log(
  `SyncBatchNorm:      max |w - w_single| = ${synced.toExponential(2)}, matches: ${synced < 1e-5}`,
);
