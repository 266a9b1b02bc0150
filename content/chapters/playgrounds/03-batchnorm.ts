// BatchNorm is the layer that breaks "no communication in the forward pass": its statistics
// come from the batch. Local statistics differ per rank; synced ones match one device.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize,
  r = dist.rank,
  features = 3,
  eps = 1e-5;
// Ranks hold different numbers of rows (3, 4, 5, …), and each rank's rows are shifted by its rank.
const rowsOf = (k: number) => 3 + k;
const total = Array.from({ length: n }, (_, k) => rowsOf(k)).reduce((a, b) => a + b, 0);
const all = tf.randomNormal([total, features], 0, 1, 'float32', 41);
const owner = Array.from({ length: n }, (_, k) => Array<number>(rowsOf(k)).fill(k)).flat();
const X = all.add(tf.tensor2d(owner, [total, 1]));
const first = Array.from({ length: r }, (_, k) => rowsOf(k)).reduce((a, b) => a + b, 0);
const mine = X.slice([first, 0], [rowsOf(r), features]);
const normalize = (x: tf.Tensor, mean: tf.Tensor, variance: tf.Tensor) =>
  x.sub(mean).div(variance.add(eps).sqrt());

// One device: statistics over the whole batch.
const { mean: gMean, variance: gVar } = tf.moments(X, 0);
const reference = normalize(mine, gMean, gVar);

// Local BatchNorm: statistics over this rank's rows only (what plain DDP does).
const { mean: lMean, variance: lVar } = tf.moments(mine, 0);
const local = normalize(mine, lMean, lVar);

// SyncBatchNorm as PyTorch does it: all-gather every rank's (mean, invstd, count), 2C + 1 values,
// then merge them weighted by count (batch_norm_gather_stats_with_counts), since counts can differ.
const own = tf.concat([lMean, lVar.add(eps).rsqrt(), tf.tensor1d([rowsOf(r)])]);
const rows = (await (await dist.allGather(own)).array()) as number[][];
const mean = Array<number>(features).fill(0),
  m2 = Array<number>(features).fill(0);
let count = 0;
for (const row of rows) {
  const c = row[2 * features]!;
  for (let i = 0; i < features; i++) {
    const m = row[i]!,
      v = 1 / row[features + i]! ** 2 - eps; // back from invstd to the rank's variance
    m2[i]! += v * c + ((mean[i]! - m) ** 2 * count * c) / (count + c); // Chan's pairwise merge
    mean[i] = (count * mean[i]! + c * m) / (count + c);
  }
  count += c;
}
const synced = normalize(mine, tf.tensor1d(mean), tf.tensor1d(m2.map((v) => v / count)));

const gapOf = async (t: tf.Tensor) => (await t.sub(reference).abs().max().data())[0]!;
const [localGap, syncGap] = [await gapOf(local), await gapOf(synced)];
console.log(
  `rank ${r}: ${rowsOf(r)} rows; gathered counts ${rows.map((row) => row[2 * features]).join(', ')} = ${count} rows`,
);
console.log(
  `rank ${r}: local mean ${Array.from(await lMean.data()).map((v) => v.toFixed(2))} vs global ${Array.from(await gMean.data()).map((v) => v.toFixed(2))}`,
);
console.log(
  `rank ${r}: local BatchNorm matches one device: ${localGap < 1e-4} (gap ${localGap.toFixed(3)})`,
);
console.log(`rank ${r}: sync BatchNorm matches one device: ${syncGap < 1e-4}`);
