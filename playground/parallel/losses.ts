import * as tf from '@tensorflow/tfjs';

/**
 * A loss that returns one value per row (shape `[rows]`). Trainers sum or average it themselves,
 * which is what makes unequal shards and gradient accumulation exact.
 */
export type RowLoss = (prediction: tf.Tensor, target: tf.Tensor) => tf.Tensor;

/** Mean squared error per row; averaged over rows it equals PyTorch's `F.mse_loss(pred, y)`. */
export const mseLoss: RowLoss = (prediction, target) =>
  tf.mean(tf.squaredDifference(prediction, target), -1);

/** Softmax cross-entropy per row against one-hot (or soft) targets; averaged it equals `F.cross_entropy`. */
export const crossEntropyLoss: RowLoss = (logits, target) =>
  tf.neg(tf.sum(tf.mul(target, tf.logSoftmax(logits)), -1));
