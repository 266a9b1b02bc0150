// Manual DDP: each rank holds its own equal shard (x, y) of the global batch and its OWN initial
// weights. Make trainDataParallel return, on every rank, exactly the weights one device would reach
// training on the whole batch from rank 0's initial weights (plain SGD on the mean squared error).
// As written, each rank trains alone on its shard from its own start.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

async function trainDataParallel(
  x: tf.Tensor2D,
  y: tf.Tensor2D,
  initial: tf.Tensor2D,
  steps: number,
  lr: number,
): Promise<tf.Tensor> {
  let w: tf.Tensor = initial;
  for (let step = 0; step < steps; step++) {
    const grad = tf.grad((weights: tf.Tensor) =>
      tf.losses.meanSquaredError(y, x.matMul(weights as tf.Tensor2D)),
    )(w);
    // TODO: start every rank from rank 0's weights, and step on the gradient of the whole batch.
    w = w.sub(grad.mul(lr));
  }
  return w;
}
