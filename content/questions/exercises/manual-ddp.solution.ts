// Broadcast rank 0's weights once; all-reduce (average) the gradients every step. Equal shards make the average exact.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

async function trainDataParallel(
  x: tf.Tensor2D,
  y: tf.Tensor2D,
  initial: tf.Tensor2D,
  steps: number,
  lr: number,
): Promise<tf.Tensor> {
  let w: tf.Tensor = await dist.broadcast(initial, { src: 0 });
  for (let step = 0; step < steps; step++) {
    const grad = tf.grad((weights: tf.Tensor) =>
      tf.losses.meanSquaredError(y, x.matMul(weights as tf.Tensor2D)),
    )(w);
    const avg = await dist.allReduce(grad, { op: 'avg' });
    w = w.sub(avg.mul(lr));
  }
  return w;
}
