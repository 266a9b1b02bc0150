import * as tf from '@tensorflow/tfjs';
import type { Dist } from '../collectives/dist-api.ts';

/** Name and shape of one parameter or buffer, as PyTorch's `named_parameters()` lists it. */
export interface TensorSpec {
  readonly name: string;
  readonly shape: readonly number[];
}

/** What a collective layer keeps from its forward pass for its backward pass. */
export type SavedState = Record<string, tf.Tensor>;

/**
 * One layer of a {@link Sequential} model. Parameters live outside the layer and are passed in, so a
 * sharded trainer can gather them just before `apply` and free them right after.
 */
export interface Layer {
  readonly kind: string;
  readonly params: readonly TensorSpec[];
  readonly buffers: readonly TensorSpec[];
  /** Initial values of parameters and buffers, in declaration order, when no seed-driven fill applies. */
  defaultValue(spec: TensorSpec): Float32Array | null;
  /** Pure forward pass; differentiated with `tf.grads` for the backward pass. */
  apply(
    x: tf.Tensor,
    params: readonly tf.Tensor[],
    training: boolean,
    buffers: readonly tf.Tensor[],
  ): tf.Tensor;
  /** New buffer values after a training forward on `x` (BatchNorm running statistics). */
  updatedBuffers?(x: tf.Tensor, buffers: readonly tf.Tensor[]): tf.Tensor[];
}

/**
 * A layer whose forward and backward passes need collectives (sync-BatchNorm), so it cannot be
 * differentiated by `tf.grads` and brings its own backward.
 */
export interface CollectiveLayer extends Layer {
  forwardCollective(
    x: tf.Tensor,
    params: readonly tf.Tensor[],
    dist: Dist,
    buffers: readonly tf.Tensor[],
  ): Promise<{ y: tf.Tensor; saved: SavedState; buffers: tf.Tensor[] }>;
  backwardCollective(
    dy: tf.Tensor,
    saved: SavedState,
    params: readonly tf.Tensor[],
    dist: Dist,
  ): Promise<{ dx: tf.Tensor; grads: tf.Tensor[] }>;
}

export function isCollectiveLayer(layer: Layer): layer is CollectiveLayer {
  return typeof (layer as Partial<CollectiveLayer>).forwardCollective === 'function';
}

/** `y = x Wᵀ + b` with PyTorch's `[out, in]` weight layout, so weights compare with `nn.Linear` directly. */
export class Linear implements Layer {
  readonly kind = 'Linear';
  readonly params: readonly TensorSpec[];
  readonly buffers: readonly TensorSpec[] = [];
  readonly inFeatures: number;
  readonly outFeatures: number;

  constructor(inFeatures: number, outFeatures: number) {
    this.inFeatures = inFeatures;
    this.outFeatures = outFeatures;
    this.params = [
      { name: 'weight', shape: [outFeatures, inFeatures] },
      { name: 'bias', shape: [outFeatures] },
    ];
  }

  defaultValue(): Float32Array | null {
    return null;
  }

  apply(x: tf.Tensor, [w, b]: readonly tf.Tensor[]): tf.Tensor {
    return tf.add(tf.matMul(x as tf.Tensor2D, w as tf.Tensor2D, false, true), b!);
  }
}

export type ActivationName = 'tanh' | 'relu' | 'sigmoid';

/** A parameter-free elementwise nonlinearity. */
export class Activation implements Layer {
  readonly kind: string;
  readonly params: readonly TensorSpec[] = [];
  readonly buffers: readonly TensorSpec[] = [];
  readonly fn: ActivationName;

  constructor(fn: ActivationName) {
    this.fn = fn;
    this.kind = fn[0]!.toUpperCase() + fn.slice(1);
  }

  defaultValue(): Float32Array | null {
    return null;
  }

  apply(x: tf.Tensor): tf.Tensor {
    if (this.fn === 'tanh') return tf.tanh(x);
    if (this.fn === 'relu') return tf.relu(x);
    return tf.sigmoid(x);
  }
}

/** Options shared by both BatchNorm flavours; defaults are PyTorch's. */
export interface BatchNormOptions {
  eps?: number;
  momentum?: number;
}

/**
 * BatchNorm over the batch axis using only this rank's rows: what plain DDP does, and why small
 * per-rank batches give different statistics from the full batch.
 */
export class BatchNorm1d implements Layer {
  readonly kind: string = 'BatchNorm1d';
  readonly params: readonly TensorSpec[];
  readonly buffers: readonly TensorSpec[];
  readonly numFeatures: number;
  readonly eps: number;
  readonly momentum: number;

  constructor(numFeatures: number, opts: BatchNormOptions = {}) {
    this.numFeatures = numFeatures;
    this.eps = opts.eps ?? 1e-5;
    this.momentum = opts.momentum ?? 0.1;
    this.params = [
      { name: 'weight', shape: [numFeatures] },
      { name: 'bias', shape: [numFeatures] },
    ];
    this.buffers = [
      { name: 'running_mean', shape: [numFeatures] },
      { name: 'running_var', shape: [numFeatures] },
    ];
  }

  defaultValue(spec: TensorSpec): Float32Array | null {
    const fill = spec.name === 'weight' || spec.name === 'running_var' ? 1 : 0;
    return new Float32Array(this.numFeatures).fill(fill);
  }

  apply(
    x: tf.Tensor,
    [gamma, beta]: readonly tf.Tensor[],
    training: boolean,
    [runMean, runVar]: readonly tf.Tensor[],
  ): tf.Tensor {
    return tf.tidy(() => {
      const { mean, variance } = training
        ? tf.moments(x, 0)
        : { mean: runMean!, variance: runVar! };
      return tf.add(
        tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, this.eps))), gamma!),
        beta!,
      );
    });
  }

  updatedBuffers(x: tf.Tensor, buffers: readonly tf.Tensor[]): tf.Tensor[] {
    return tf.tidy(() => {
      const { mean, variance } = tf.moments(x, 0);
      return runningUpdate(buffers, mean, variance, x.shape[0]!, this.momentum);
    });
  }
}

/** PyTorch's running-statistics rule: the running variance uses the unbiased batch variance. */
function runningUpdate(
  [runMean, runVar]: readonly tf.Tensor[],
  mean: tf.Tensor,
  biasedVar: tf.Tensor,
  count: number,
  momentum: number,
): tf.Tensor[] {
  const unbiased = count > 1 ? tf.mul(biasedVar, count / (count - 1)) : biasedVar;
  return [
    tf.add(tf.mul(runMean!, 1 - momentum), tf.mul(mean, momentum)),
    tf.add(tf.mul(runVar!, 1 - momentum), tf.mul(unbiased, momentum)),
  ];
}

/**
 * Merges per-rank (mean, invstd, count) rows into the global mean and biased variance, in rank order, as
 * `batch_norm_reduce_statistics_kernel` (aten/src/ATen/native/cuda/Normalization.cuh, behind
 * `torch.batch_norm_gather_stats_with_counts`) does: Chan's pairwise update, ranks with count 0 skipped.
 */
export function combineRankStats(
  rows: readonly Float32Array[] | readonly number[][],
  channels: number,
  eps: number,
): { mean: number[]; variance: number[]; count: number } {
  const mean = new Array<number>(channels).fill(0);
  const varN = new Array<number>(channels).fill(0);
  let n = 0;
  for (const row of rows) {
    const count = row[2 * channels]!;
    if (count < 1) continue; // PyTorch masks out ranks whose input was empty
    for (let i = 0; i < channels; i++) {
      const m = row[i]!;
      const v = (1 / row[channels + i]! ** 2 - eps) * count;
      const factor = 1 / (n + count);
      varN[i]! += v + (mean[i]! - m) ** 2 * n * count * factor;
      mean[i] = n * factor * mean[i]! + count * factor * m;
    }
    n += count;
  }
  return { mean, variance: varN.map((v) => v / n), count: n };
}

/**
 * BatchNorm whose statistics cover every rank's rows, as `torch.nn.SyncBatchNorm` does it
 * (torch/nn/modules/_functions.py, `SyncBatchNorm.forward`): each rank all-gathers its own
 * (mean, invstd, count), 2C + 1 values, and every rank combines them weighted by count, so ranks may
 * hold different numbers of rows. The backward all-reduces [Σdy, Σdy·x̂].
 */
export class SyncBatchNorm extends BatchNorm1d implements CollectiveLayer {
  override readonly kind = 'SyncBatchNorm';

  async forwardCollective(
    x: tf.Tensor,
    [gamma, beta]: readonly tf.Tensor[],
    dist: Dist,
    buffers: readonly tf.Tensor[],
  ) {
    const c = this.numFeatures;
    const rows = x.shape[0]!;
    // C, C, 1 -> 2C + 1; an empty shard still joins the all-gather, with count 0.
    const local =
      rows > 0
        ? tf.tidy(() => {
            const { mean, variance } = tf.moments(x, 0);
            return tf.concat([mean, tf.rsqrt(tf.add(variance, this.eps)), tf.tensor1d([rows])]);
          })
        : tf.zeros([2 * c + 1]);
    const gathered = await dist.allGather(local);
    local.dispose();
    const flat = (await gathered.data()) as Float32Array;
    gathered.dispose();
    const perRank = Array.from({ length: flat.length / (2 * c + 1) }, (_, r) =>
      flat.subarray(r * (2 * c + 1), (r + 1) * (2 * c + 1)),
    );
    const { mean: m, variance: v, count } = combineRankStats(perRank, c, this.eps);
    return tf.tidy(() => {
      const mean = tf.tensor1d(m);
      const variance = tf.tensor1d(v);
      const invStd = tf.rsqrt(tf.add(variance, this.eps));
      const xhat = tf.mul(tf.sub(x, mean), invStd);
      const y = tf.add(tf.mul(xhat, gamma!), beta!);
      const newBuffers = runningUpdate(buffers, mean, variance, count, this.momentum);
      return { y, saved: { xhat, invStd, count: tf.scalar(count) }, buffers: newBuffers };
    });
  }

  async backwardCollective(
    dy: tf.Tensor,
    saved: SavedState,
    [gamma]: readonly tf.Tensor[],
    dist: Dist,
  ) {
    const { xhat, invStd, count } = saved as {
      xhat: tf.Tensor;
      invStd: tf.Tensor;
      count: tf.Tensor;
    };
    const local = tf.tidy(() => tf.concat([tf.sum(dy, 0), tf.sum(tf.mul(dy, xhat), 0)]));
    const global = await dist.allReduce(local, { op: 'sum' });
    const result = tf.tidy(() => {
      const c = this.numFeatures;
      const sumDy = tf.slice(global, [0], [c]);
      const sumDyXhat = tf.slice(global, [c], [c]);
      const n = count;
      // dx = γ/σ · (dy − (Σdy + x̂ Σdy·x̂) / N), sums over every rank's rows.
      const dx = tf.mul(
        tf.mul(gamma!, invStd),
        tf.sub(dy, tf.div(tf.add(sumDy, tf.mul(xhat, sumDyXhat)), n)),
      );
      // Parameter gradients stay local: the data-parallel wrapper sums them across ranks like any other.
      return { dx, grads: [tf.sum(tf.mul(dy, xhat), 0), tf.sum(dy, 0)] };
    });
    local.dispose();
    global.dispose();
    return result;
  }
}
