import * as tf from '@tensorflow/tfjs';
import { mseLoss, type RowLoss } from './losses.ts';
import { initialState, type ElementwiseOptimizer } from './optimizers.ts';
import type { Sequential } from './sequential.ts';

/**
 * The yardstick: ordinary full-batch training on one device, differentiating the whole model at once
 * with `tf.grads`. Every data-parallel trainer must land on the same weights.
 */
export class SingleDeviceTrainer {
  readonly model: Sequential;
  readonly optimizer: ElementwiseOptimizer;
  private readonly state: tf.Tensor[][];
  private steps = 0;

  constructor(model: Sequential, optimizer: ElementwiseOptimizer) {
    this.model = model;
    this.optimizer = optimizer;
    this.state = model.params.map((p) => initialState(optimizer, p.shape));
  }

  /** One step on the full batch; returns the mean loss before the update. */
  async trainStep(x: tf.Tensor, target: tf.Tensor, loss: RowLoss = mseLoss): Promise<number> {
    const model = this.model;
    const f = (...params: tf.Tensor[]) => tf.mean(loss(model.applyWith(x, params, true), target));
    const { value, grads } = tf.tidy(() => {
      const { value, grads } = tf.valueAndGrads(f)(model.params);
      return { value, grads };
    });
    // Running statistics update once per step, as a PyTorch forward in train mode does.
    tf.tidy(() => {
      let h = x;
      model.layers.forEach((layer, i) => {
        const p = model.layerParams[i]!.map((k) => model.params[k]!);
        const b = model.layerBuffers[i]!.map((k) => model.buffers[k]!);
        if (layer.updatedBuffers) layer.updatedBuffers(h, b).forEach((v, j) => b[j]!.assign(v));
        h = layer.apply(h, p, true, b);
      });
    });
    this.steps++;
    model.params.forEach((p, i) => {
      const out = this.optimizer.update(p, grads[i]!, this.state[i]!, this.steps);
      p.assign(out.param);
      out.param.dispose();
      tf.dispose(this.state[i]!);
      this.state[i] = out.state;
    });
    tf.dispose(grads);
    const loss0 = (await value.data())[0]!;
    value.dispose();
    return loss0;
  }

  dispose(): void {
    for (const s of this.state) tf.dispose(s);
  }
}
