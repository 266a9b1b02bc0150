import * as tf from '@tensorflow/tfjs';

/**
 * An optimizer whose update is elementwise, so it can be applied to any slice of the parameters:
 * that is what lets ZeRO give each rank only its shard of the optimizer state.
 */
export interface ElementwiseOptimizer {
  readonly name: string;
  /** Tensors of state per parameter element (Adam: 2, SGD with momentum: 1, plain SGD: 0). */
  readonly stateSlots: number;
  /**
   * One update at step `step` (1-based). Returns the new parameter and new state; the caller
   * disposes the old ones.
   */
  update(
    param: tf.Tensor,
    grad: tf.Tensor,
    state: readonly tf.Tensor[],
    step: number,
  ): { param: tf.Tensor; state: tf.Tensor[] };
}

/** Plain or momentum SGD, PyTorch's `torch.optim.SGD` (no dampening, no Nesterov). */
export class SGD implements ElementwiseOptimizer {
  readonly name = 'SGD';
  readonly lr: number;
  readonly momentum: number;
  readonly stateSlots: number;

  constructor(opts: { lr: number; momentum?: number }) {
    this.lr = opts.lr;
    this.momentum = opts.momentum ?? 0;
    this.stateSlots = this.momentum ? 1 : 0;
  }

  update(param: tf.Tensor, grad: tf.Tensor, state: readonly tf.Tensor[], step: number) {
    return tf.tidy(() => {
      if (!this.momentum) return { param: tf.sub(param, tf.mul(grad, this.lr)), state: [] };
      const buf = step === 1 ? tf.clone(grad) : tf.add(tf.mul(state[0]!, this.momentum), grad);
      return { param: tf.sub(param, tf.mul(buf, this.lr)), state: [buf] };
    });
  }
}

/** Adam with PyTorch 1.13's exact operation order (bias corrections folded as `torch.optim.Adam` does). */
export class Adam implements ElementwiseOptimizer {
  readonly name = 'Adam';
  readonly stateSlots = 2;
  readonly lr: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;

  constructor(opts: { lr: number; betas?: [number, number]; eps?: number }) {
    this.lr = opts.lr;
    [this.beta1, this.beta2] = opts.betas ?? [0.9, 0.999];
    this.eps = opts.eps ?? 1e-8;
  }

  update(param: tf.Tensor, grad: tf.Tensor, [m0, v0]: readonly tf.Tensor[], step: number) {
    return tf.tidy(() => {
      const m = tf.add(tf.mul(m0!, this.beta1), tf.mul(grad, 1 - this.beta1));
      const v = tf.add(tf.mul(v0!, this.beta2), tf.mul(tf.square(grad), 1 - this.beta2));
      const stepSize = this.lr / (1 - this.beta1 ** step);
      const denom = tf.add(tf.div(tf.sqrt(v), Math.sqrt(1 - this.beta2 ** step)), this.eps);
      return { param: tf.sub(param, tf.mul(tf.div(m, denom), stepSize)), state: [m, v] };
    });
  }
}

/** Zero-filled state tensors for `optimizer` over a tensor of `shape`. */
export function initialState(
  optimizer: ElementwiseOptimizer,
  shape: readonly number[],
): tf.Tensor[] {
  return Array.from({ length: optimizer.stateSlots }, () => tf.zeros([...shape]));
}
