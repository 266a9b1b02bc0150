import * as tf from '@tensorflow/tfjs';
import { Lcg } from './lcg.ts';
import { mlp, type MlpOptions, type Sequential } from './sequential.ts';

/**
 * The book's fixed experiment, identical to tests/reference/mlp_twin.py: a 4 → 8 (tanh) → 3 MLP,
 * 16 rows, weights and data from the shared LCG, MSE loss, SGD lr 0.1 and Adam lr 0.01.
 */
export const REFERENCE_MLP = {
  sizes: [4, 8, 3] as const,
  rows: 16,
  steps: 5,
  paramSeed: 1,
  dataSeed: 2,
  lr: { sgd: 0.1, adam: 0.01 },
} as const;

/** The reference model with its fixed initial weights (optionally with BatchNorm after the hidden layer). */
export function referenceModel(opts: Pick<MlpOptions, 'batchNorm'> = {}): Sequential {
  return mlp(REFERENCE_MLP.sizes, {
    activation: 'tanh',
    seed: REFERENCE_MLP.paramSeed,
    scale: 0.5,
    ...opts,
  });
}

/** The reference data set: inputs `[rows, 4]` then targets `[rows, 3]`, from the LCG in that order. */
export function referenceData(rows: number = REFERENCE_MLP.rows): {
  x: tf.Tensor2D;
  y: tf.Tensor2D;
} {
  const rng = new Lcg(REFERENCE_MLP.dataSeed);
  const [din, , dout] = REFERENCE_MLP.sizes;
  const xs = rng.fill(REFERENCE_MLP.rows * din);
  const ys = rng.fill(REFERENCE_MLP.rows * dout);
  if (rows <= REFERENCE_MLP.rows)
    return {
      x: tf.tensor2d(xs.slice(0, rows * din), [rows, din]),
      y: tf.tensor2d(ys.slice(0, rows * dout), [rows, dout]),
    };
  // More rows than the twin uses: keep drawing from the same generator.
  const more = new Lcg(REFERENCE_MLP.dataSeed + 1);
  return {
    x: tf.tensor2d(Float32Array.from([...xs, ...more.fill((rows - REFERENCE_MLP.rows) * din)]), [
      rows,
      din,
    ]),
    y: tf.tensor2d(Float32Array.from([...ys, ...more.fill((rows - REFERENCE_MLP.rows) * dout)]), [
      rows,
      dout,
    ]),
  };
}
