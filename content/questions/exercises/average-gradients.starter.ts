// Manual data parallelism: every rank holds the same weights w and its own shard of the batch.
// Make `averagedGradient` return the full-batch gradient of the mean squared error on EVERY rank,
// using all-reduce. (The shards may have different sizes!)
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

/** Gradient of mean((x·w − y)²) over this rank's rows. */
function localGradient(x: tf.Tensor2D, y: tf.Tensor2D, w: tf.Tensor2D): tf.Tensor {
  return tf.grad((weights: tf.Tensor) =>
    tf.losses.meanSquaredError(y, x.matMul(weights as tf.Tensor2D)),
  )(w);
}

async function averagedGradient(
  x: tf.Tensor2D,
  y: tf.Tensor2D,
  w: tf.Tensor2D,
): Promise<tf.Tensor> {
  const g = localGradient(x, y, w);
  // TODO: combine the ranks' gradients so the result equals the gradient over all rows.
  return g;
}
