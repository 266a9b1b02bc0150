import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Adam, SGD } from '../../../playground/parallel/optimizers.ts';
import {
  REFERENCE_MLP,
  referenceData,
  referenceModel,
} from '../../../playground/parallel/reference-mlp.ts';
import { SingleDeviceTrainer } from '../../../playground/parallel/single-device.ts';
import { loadReference, maxParamDiff } from './reference-json.ts';

const ref = loadReference();

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('TypeScript reference MLP vs the committed PyTorch JSON', () => {
  it('rebuilds the same data and initial weights bit for bit from the shared LCG', async () => {
    const { x, y } = referenceData();
    expect(Array.from(await x.data())).toEqual(ref.x);
    expect(Array.from(await y.data())).toEqual(ref.y);
    const model = referenceModel();
    const snap = await model.snapshot();
    for (const [name, values] of Object.entries(ref.initial))
      expect(Array.from(snap[name]!)).toEqual(values);
    model.dispose();
  });

  for (const kind of ['sgd', 'adam'] as const) {
    it(`single-device ${kind} matches torch step by step to 1e-5`, async () => {
      const { x, y } = referenceData();
      const model = referenceModel();
      const trainer = new SingleDeviceTrainer(
        model,
        kind === 'sgd'
          ? new SGD({ lr: REFERENCE_MLP.lr.sgd })
          : new Adam({ lr: REFERENCE_MLP.lr.adam }),
      );
      const torchRun = ref.runs[`single/${kind}`]!;
      for (let step = 0; step < REFERENCE_MLP.steps; step++) {
        const loss = await trainer.trainStep(x, y);
        expect(Math.abs(loss - torchRun[step]!.loss)).toBeLessThan(1e-5);
        expect(maxParamDiff(await model.snapshot(), torchRun[step]!.params)).toBeLessThan(1e-5);
      }
      trainer.dispose();
      model.dispose();
    });
  }

  // Torch's SyncBatchNorm needs CUDA in 1.13, so sync-BatchNorm is checked against this single-device BatchNorm.
  it(`single-device sgd with BatchNorm1d matches torch (weights and running statistics) to 1e-5`, async () => {
    const { x, y } = referenceData();
    const model = referenceModel({ batchNorm: 'local' });
    const trainer = new SingleDeviceTrainer(model, new SGD({ lr: REFERENCE_MLP.lr.sgd }));
    const torchRun = ref.runs['single-bn/sgd']!;
    for (let step = 0; step < REFERENCE_MLP.steps; step++) {
      const loss = await trainer.trainStep(x, y);
      expect(Math.abs(loss - torchRun[step]!.loss)).toBeLessThan(1e-5);
      expect(maxParamDiff(await model.snapshot(), torchRun[step]!.params)).toBeLessThan(1e-5);
    }
    const buffers: Record<string, Float32Array> = {};
    for (let i = 0; i < model.buffers.length; i++)
      buffers[model.bufferNames[i]!] = (await model.buffers[i]!.data()) as Float32Array;
    expect(maxParamDiff(buffers, ref.buffers['single-bn/sgd']!)).toBeLessThan(1e-5);
    trainer.dispose();
    model.dispose();
  });
});
