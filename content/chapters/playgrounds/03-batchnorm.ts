// BatchNorm is the layer that breaks "no communication in the forward pass": its statistics
// come from the batch. Local statistics differ per rank; synced ones match one device.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize, r = dist.rank, rows = 4, features = 3, eps = 1e-5;
// Each rank's rows come from a differently shifted distribution, as shards often do.
const all = tf.randomNormal([n * rows, features], 0, 1, 'float32', 41);
const shift = tf.range(0, n * rows).floorDiv(rows).reshape([n * rows, 1]).cast('float32');
const X = all.add(shift); // rows of rank k are shifted by k
const mine = X.slice([r * rows, 0], [rows, features]);
const normalize = (x: tf.Tensor, mean: tf.Tensor, variance: tf.Tensor) => x.sub(mean).div(variance.add(eps).sqrt());

// One device: statistics over the whole batch.
const { mean: gMean, variance: gVar } = tf.moments(X, 0);
const reference = normalize(mine, gMean, gVar);

// Local BatchNorm: statistics over this rank's rows only (what plain DDP does).
const { mean: lMean, variance: lVar } = tf.moments(mine, 0);
const local = normalize(mine, lMean, lVar);

// SyncBatchNorm: all-reduce the count, the sum and the sum of squares, then derive mean and variance.
const stats = await dist.allReduce(tf.concat([tf.tensor1d([rows]), mine.sum(0), mine.square().sum(0)]), { op: 'sum' });
const [count, sum, sumSq] = [stats.slice(0, 1), stats.slice(1, features), stats.slice(1 + features, features)];
const sMean = sum.div(count);
const sVar = sumSq.div(count).sub(sMean.square()); // biased variance, as BatchNorm normalizes with
const synced = normalize(mine, sMean, sVar);

const gapOf = async (t: tf.Tensor) => (await t.sub(reference).abs().max().data())[0]!;
const [localGap, syncGap] = [await gapOf(local), await gapOf(synced)];
console.log(`rank ${r}: local mean ${Array.from(await lMean.data()).map((v) => v.toFixed(2))} vs global ${Array.from(await gMean.data()).map((v) => v.toFixed(2))}`);
console.log(`rank ${r}: local BatchNorm matches one device: ${localGap < 1e-4} (gap ${localGap.toFixed(3)})`);
console.log(`rank ${r}: sync BatchNorm matches one device: ${syncGap < 1e-4}`);
