// Weight each rank's mean gradient by its share of the rows, then sum: exact even for unequal shards.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

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
  const total = await dist.allReduce(tf.scalar(x.shape[0], 'int32')); // rows on all ranks
  const rows = (await total.data())[0]!;
  return dist.allReduce(g.mul(x.shape[0] / rows), { op: 'sum' });
}
