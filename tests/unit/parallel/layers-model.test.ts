import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyToLayersModel, fromLayersModel } from '../../../playground/parallel/sequential.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('tfjs LayersModel interop', () => {
  it('fromLayersModel predicts exactly what the LayersModel predicts, and copies weights back', async () => {
    const model = tf.sequential({
      layers: [
        tf.layers.dense({ inputShape: [5], units: 7, activation: 'relu' }),
        tf.layers.dense({ units: 2, activation: 'tanh' }),
        tf.layers.dense({ units: 3 }),
      ],
    });
    const seq = fromLayersModel(model);
    expect(seq.paramNames).toEqual([
      '0.weight',
      '0.bias',
      '2.weight',
      '2.bias',
      '4.weight',
      '4.bias',
    ]);
    expect(seq.params[0]!.shape).toEqual([7, 5]);
    const x = tf.randomNormal([4, 5]);
    const a = await (model.predict(x) as tf.Tensor).data();
    const b = await seq.predict(x).data();
    b.forEach((v, i) => expect(v).toBeCloseTo(a[i]!, 6));
    seq.params[1]!.assign(tf.fill([7], 0.25));
    copyToLayersModel(seq, model);
    expect(Array.from(await model.layers[0]!.getWeights()[1]!.data())).toEqual(Array(7).fill(0.25));
  });

  it('refuses layers it cannot split into differentiable stages', () => {
    const model = tf.sequential({
      layers: [tf.layers.dense({ inputShape: [3], units: 2 }), tf.layers.dropout({ rate: 0.5 })],
    });
    expect(() => fromLayersModel(model)).toThrow(/unsupported layer Dropout/);
  });
});
