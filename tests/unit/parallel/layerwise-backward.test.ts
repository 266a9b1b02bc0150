import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { forwardBackward } from '../../../playground/parallel/layerwise-backward.ts';
import { mseLoss } from '../../../playground/parallel/losses.ts';
import { referenceData, referenceModel } from '../../../playground/parallel/reference-mlp.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('layer-by-layer backward', () => {
  for (const batchNorm of ['none', 'local'] as const) {
    it(`gives tf.grads' gradients, output layer first (batchNorm: ${batchNorm})`, async () => {
      const model = referenceModel({ batchNorm });
      const { x, y } = referenceData();
      const expected = tf.grads((...p: tf.Tensor[]) =>
        tf.sum(mseLoss(model.applyWith(x, p, true), y)),
      )(model.params);
      const got: tf.Tensor[] = [];
      const order: number[] = [];
      const { lossSum, rows } = await forwardBackward(model, x, y, mseLoss, {
        reduction: 'sum',
        hooks: {
          paramsFor: async (i) => model.layerParams[i]!.map((k) => model.params[k]!),
          releaseParams: () => {},
          onGrads: (i, grads) => {
            order.push(i);
            model.layerParams[i]!.forEach((k, j) => (got[k] = grads[j]!));
          },
        },
      });
      expect(rows).toBe(16);
      expect(lossSum).toBeGreaterThan(0);
      expect(order).toEqual([...order].sort((a, b) => b - a));
      for (let k = 0; k < expected.length; k++) {
        const diff = (await tf.max(tf.abs(tf.sub(got[k]!, expected[k]!))).data())[0]!;
        expect(diff).toBeLessThan(1e-6);
      }
    });
  }
});
