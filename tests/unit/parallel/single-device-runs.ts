import * as tf from '@tensorflow/tfjs';
import { Adam, SGD } from '../../../playground/parallel/optimizers.ts';
import {
  REFERENCE_MLP,
  referenceData,
  referenceModel,
} from '../../../playground/parallel/reference-mlp.ts';
import { SingleDeviceTrainer } from '../../../playground/parallel/single-device.ts';

export type OptimizerKind = 'sgd' | 'adam';

export function makeOptimizer(kind: OptimizerKind) {
  return kind === 'sgd'
    ? new SGD({ lr: REFERENCE_MLP.lr.sgd })
    : new Adam({ lr: REFERENCE_MLP.lr.adam });
}

/** Parameters after each of `steps` full-batch single-device steps on the reference problem. */
export async function singleDeviceHistory(
  kind: OptimizerKind,
  opts: { batchNorm?: 'none' | 'local'; steps?: number } = {},
): Promise<{ params: Record<string, number[]>[]; buffers: Record<string, number[]> }> {
  await tf.setBackend('cpu');
  const model = referenceModel({ batchNorm: opts.batchNorm });
  const { x, y } = referenceData();
  const trainer = new SingleDeviceTrainer(model, makeOptimizer(kind));
  const params: Record<string, number[]>[] = [];
  for (let s = 0; s < (opts.steps ?? REFERENCE_MLP.steps); s++) {
    await trainer.trainStep(x, y);
    params.push(
      Object.fromEntries(
        Object.entries(await model.snapshot()).map(([k, v]) => [k, Array.from(v)]),
      ),
    );
  }
  const buffers: Record<string, number[]> = {};
  for (let i = 0; i < model.buffers.length; i++)
    buffers[model.bufferNames[i]!] = Array.from(await model.buffers[i]!.data());
  trainer.dispose();
  model.dispose();
  tf.dispose([x, y]);
  return { params, buffers };
}
