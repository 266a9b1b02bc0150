import * as tf from '@tensorflow/tfjs';
import { Lcg } from './lcg.ts';
import {
  Activation,
  BatchNorm1d,
  Linear,
  SyncBatchNorm,
  type ActivationName,
  type Layer,
  type TensorSpec,
} from './layers.ts';

/**
 * A stack of layers with its parameters and buffers registered in PyTorch's order
 * (`0.weight`, `0.bias`, `2.weight`, …), which is the order DDP buckets walk in reverse.
 */
export class Sequential {
  readonly layers: readonly Layer[];
  /** Parameters in registration order. */
  readonly params: tf.Variable[] = [];
  readonly paramNames: string[] = [];
  /** For each layer, the indices of its parameters in {@link Sequential.params}. */
  readonly layerParams: number[][] = [];
  readonly buffers: tf.Variable[] = [];
  readonly bufferNames: string[] = [];
  readonly layerBuffers: number[][] = [];

  /** Parameters filled in registration order from the shared LCG (scaled by `scale`) when `seed` is given. */
  constructor(layers: Layer[], opts: { seed?: number; scale?: number } = {}) {
    this.layers = layers;
    const rng = opts.seed === undefined ? null : new Lcg(opts.seed);
    layers.forEach((layer, i) => {
      this.layerParams.push(
        layer.params.map((spec) => {
          const n = spec.shape.reduce((a, b) => a * b, 1);
          const fixed = layer.defaultValue(spec);
          const values =
            fixed ?? (rng ? rng.fill(n, opts.scale ?? 0.5) : glorotLike(n, spec.shape));
          this.params.push(ownedVariable(values, spec.shape, true));
          this.paramNames.push(`${i}.${spec.name}`);
          return this.params.length - 1;
        }),
      );
      this.layerBuffers.push(
        layer.buffers.map((spec) => {
          this.buffers.push(ownedVariable(layer.defaultValue(spec)!, spec.shape, false));
          this.bufferNames.push(`${i}.${spec.name}`);
          return this.buffers.length - 1;
        }),
      );
    });
  }

  /** Ψ: the number of trainable scalars. */
  get numParams(): number {
    return this.params.reduce((n, p) => n + p.size, 0);
  }

  /** Inference or single-device forward pass through the registered variables. */
  predict(x: tf.Tensor, training = false): tf.Tensor {
    return tf.tidy(() => this.applyWith(x, this.params, training));
  }

  /** Forward pass with explicit parameter values (same order as {@link Sequential.params}); differentiable. */
  applyWith(x: tf.Tensor, params: readonly tf.Tensor[], training: boolean): tf.Tensor {
    let h = x;
    this.layers.forEach((layer, i) => {
      const p = this.layerParams[i]!.map((k) => params[k]!);
      const b = this.layerBuffers[i]!.map((k) => this.buffers[k]!);
      h = layer.apply(h, p, training, b);
    });
    return h;
  }

  /** Copies of every parameter as flat arrays, keyed by PyTorch-style name. */
  async snapshot(): Promise<Record<string, Float32Array>> {
    const out: Record<string, Float32Array> = {};
    for (let i = 0; i < this.params.length; i++)
      out[this.paramNames[i]!] = (await this.params[i]!.data()) as Float32Array;
    return out;
  }

  dispose(): void {
    for (const v of [...this.params, ...this.buffers]) v.dispose();
  }
}

/** A variable that is the only owner of its data, so disposing it (ZeRO-3) really frees the memory. */
function ownedVariable(
  values: Float32Array,
  shape: readonly number[],
  trainable: boolean,
): tf.Variable {
  const initial = tf.tensor(values, [...shape], 'float32');
  const v = tf.variable(initial, trainable);
  initial.dispose();
  return v;
}

/** Small uniform values for models built without a seed (scale 1/√fan-in). */
function glorotLike(n: number, shape: readonly number[]): Float32Array {
  const fanIn = shape.length > 1 ? shape[shape.length - 1]! : shape[0]!;
  const bound = 1 / Math.sqrt(fanIn);
  return Float32Array.from({ length: n }, () => (Math.random() * 2 - 1) * bound);
}

export interface MlpOptions {
  activation?: ActivationName;
  /** Fill parameters from the shared LCG so every rank (and the PyTorch twin) starts identical. */
  seed?: number;
  scale?: number;
  /** Insert BatchNorm after each hidden Linear: per-rank statistics or synchronized across ranks. */
  batchNorm?: 'none' | 'local' | 'sync';
}

/**
 * `Linear → act → … → Linear`, laid out like `nn.Sequential(nn.Linear, nn.Tanh, …)` so parameter names match PyTorch.
 * @example const model = mlp([4, 8, 3], { activation: 'tanh', seed: 1 });
 */
export function mlp(sizes: readonly number[], opts: MlpOptions = {}): Sequential {
  const layers: Layer[] = [];
  for (let i = 0; i + 1 < sizes.length; i++) {
    layers.push(new Linear(sizes[i]!, sizes[i + 1]!));
    if (i + 2 < sizes.length) {
      if (opts.batchNorm === 'local') layers.push(new BatchNorm1d(sizes[i + 1]!));
      if (opts.batchNorm === 'sync') layers.push(new SyncBatchNorm(sizes[i + 1]!));
      layers.push(new Activation(opts.activation ?? 'tanh'));
    }
  }
  return new Sequential(layers, { seed: opts.seed, scale: opts.scale });
}

/**
 * Wraps a tfjs `Sequential` LayersModel made of Dense layers (linear, relu, tanh or sigmoid activations).
 * The weights are copied (kernel `[in, out]` becomes PyTorch's `[out, in]`); write them back with {@link copyToLayersModel}.
 */
export function fromLayersModel(model: tf.LayersModel): Sequential {
  const layers: Layer[] = [];
  const values: tf.Tensor[] = [];
  for (const layer of model.layers) {
    const config = layer.getConfig();
    if (layer.getClassName() === 'InputLayer') continue;
    if (layer.getClassName() !== 'Dense')
      throw new Error(`fromLayersModel: unsupported layer ${layer.getClassName()} (Dense only)`);
    const [kernel, bias] = layer.getWeights();
    if (!kernel || !bias) throw new Error(`fromLayersModel: ${layer.name} needs a bias`);
    layers.push(new Linear(kernel.shape[0]!, kernel.shape[1]!));
    values.push(tf.transpose(kernel), tf.clone(bias));
    const act = String(config.activation ?? 'linear');
    if (act === 'tanh' || act === 'relu' || act === 'sigmoid') layers.push(new Activation(act));
    else if (act !== 'linear') throw new Error(`fromLayersModel: unsupported activation ${act}`);
  }
  const seq = new Sequential(layers, { seed: 0 });
  seq.params.forEach((p, i) => p.assign(values[i]!));
  tf.dispose(values);
  return seq;
}

/** Writes a {@link Sequential}'s weights back into the LayersModel it was made from. */
export function copyToLayersModel(seq: Sequential, model: tf.LayersModel): void {
  let k = 0;
  for (const layer of model.layers) {
    if (layer.getClassName() !== 'Dense') continue;
    const w = seq.params[k++]!;
    const b = seq.params[k++]!;
    const kernel = tf.transpose(w);
    layer.setWeights([kernel, b]);
    kernel.dispose();
  }
}

/** A model given as plain variables plus a forward function: one stage, so its gradients arrive together (a list of them is one layer each). */
export interface FunctionModel {
  params: tf.Variable[];
  forward: (x: tf.Tensor, params: readonly tf.Tensor[]) => tf.Tensor;
}

/** One differentiable stage wrapping a user forward function over its own variables. */
class FunctionLayer implements Layer {
  readonly kind = 'Function';
  readonly params: readonly TensorSpec[];
  readonly buffers: readonly TensorSpec[] = [];
  private readonly forward: FunctionModel['forward'];

  constructor(model: FunctionModel) {
    this.forward = model.forward;
    this.params = model.params.map((v, i) => ({ name: v.name || `p${i}`, shape: v.shape }));
  }

  defaultValue(spec: TensorSpec): Float32Array {
    return new Float32Array(spec.shape.reduce((a, b) => a * b, 1));
  }

  apply(x: tf.Tensor, params: readonly tf.Tensor[]): tf.Tensor {
    return this.forward(x, params);
  }
}

/**
 * The wrappers' common input: a {@link Sequential} as is, a Dense-only tfjs LayersModel (copied; write back
 * with {@link copyToLayersModel}), `{ params, forward }` (trained in place: the variables are updated), or
 * a list of them run in order, each one layer (a transformer's embedding, its blocks, its head).
 */
export function toSequential(model: TrainableModel): Sequential {
  if (model instanceof Sequential) return model;
  if (model instanceof tf.LayersModel) return fromLayersModel(model);
  const stages: readonly FunctionModel[] = Array.isArray(model) ? model : [model as FunctionModel];
  const seq = new Sequential(stages.map((stage) => new FunctionLayer(stage)));
  seq.params
    .splice(0, seq.params.length, ...stages.flatMap((stage) => stage.params))
    .forEach((v) => v.dispose());
  return seq;
}

/** Anything the data-parallel wrappers accept as a model. */
export type TrainableModel = Sequential | tf.LayersModel | FunctionModel | readonly FunctionModel[];
