import * as tf from '@tensorflow/tfjs';
import { rankContext } from '../collectives/rank-context.ts';
import type { Dist } from '../collectives/dist-api.ts';
import type { CollectiveKind } from '../contract/protocol.ts';
import { isCollectiveLayer, type SavedState } from './layers.ts';
import type { RowLoss } from './losses.ts';
import type { MemoryLedger } from './memory-ledger.ts';
import type { Sequential } from './sequential.ts';
import { yieldToEventLoop } from './yield-to-event-loop.ts';

/** A span of work on this rank, for the timeline that shows communication overlapping the backward pass. */
export interface TimelineSpan {
  kind: 'forward' | 'backward' | 'optimizer' | CollectiveKind;
  label: string;
  start: number;
  end: number;
  bytes?: number;
  /** The model layer a forward or backward span computed. */
  layer?: number;
}

/** How a trainer supplies parameters to each layer and receives each layer's gradients. */
export interface LayerHooks {
  /** Full parameter values of layer `i` (a sharded trainer all-gathers them here). */
  paramsFor(layer: number, phase: 'forward' | 'backward'): Promise<tf.Tensor[]>;
  /** Called when layer `i` is done with the tensors `paramsFor` returned (a sharded trainer frees them). */
  releaseParams(layer: number, params: tf.Tensor[]): void;
  /** Gradients of layer `i`'s parameters, in its declaration order; ownership passes to the hook. */
  onGrads(layer: number, grads: tf.Tensor[]): void | Promise<void>;
}

export interface LayerwiseOptions {
  /** 'sum' backpropagates Σ row losses (exact for unequal shards and accumulation); 'mean' the local mean. */
  reduction: 'sum' | 'mean';
  hooks: LayerHooks;
  dist?: Dist;
  ledger?: MemoryLedger;
  /** Receives a span per layer of forward and backward work. */
  record?: (span: TimelineSpan) => void;
  /** Clock for the spans (the runtime's trace clock under a trainer). */
  now?: () => number;
}

/**
 * One forward and one backward pass, layer by layer from the output back to the input, handing each
 * layer's gradients to `hooks.onGrads` as soon as they exist and yielding to the event loop between
 * layers, so collectives launched from the hook progress while earlier layers are still computing.
 * Returns the sum of the row losses and the number of rows.
 */
export async function forwardBackward(
  model: Sequential,
  x: tf.Tensor,
  target: tf.Tensor,
  loss: RowLoss,
  opts: LayerwiseOptions,
): Promise<{ lossSum: number; rows: number }> {
  const { hooks, ledger, record } = opts;
  // Virtual time: kernels charged from here on are labelled by phase.
  const sim = opts.dist ? rankContext(opts.dist).sim : null;
  const label = sim?.setLabel('forward');
  const now = opts.now ?? (() => performance.now());
  const inputs: tf.Tensor[] = [];
  const saved: (SavedState | null)[] = [];
  let h = x;
  for (let i = 0; i < model.layers.length; i++) {
    const layer = model.layers[i]!;
    const t0 = now();
    const params = await hooks.paramsFor(i, 'forward');
    const buffers = model.layerBuffers[i]!.map((k) => model.buffers[k]!);
    let y: tf.Tensor;
    if (isCollectiveLayer(layer)) {
      if (!opts.dist)
        throw new Error(`${layer.kind} needs a dist (run it under DDP, ZeRO or FSDP)`);
      const out = await layer.forwardCollective(h, params, opts.dist, buffers);
      y = out.y;
      saved.push(out.saved);
      assignBuffers(model, i, out.buffers);
    } else {
      y = tf.tidy(() => layer.apply(h, params, true, buffers));
      saved.push(null);
      if (layer.updatedBuffers) assignBuffers(model, i, layer.updatedBuffers(h, buffers));
    }
    hooks.releaseParams(i, params);
    inputs.push(h);
    if (i > 0) ledger?.hold('activations', h);
    h = y;
    record?.({ kind: 'forward', label: `${i}.${layer.kind}`, start: t0, end: now(), layer: i });
  }
  const prediction = h;
  const rows = x.shape[0]!;
  const [lossValue, seed] = tf.tidy(() => {
    const reduce = (p: tf.Tensor) =>
      opts.reduction === 'sum' ? tf.sum(loss(p, target)) : tf.mean(loss(p, target));
    return [reduce(prediction), tf.grad(reduce)(prediction)];
  });
  const lossSum = (await lossValue.data())[0]! * (opts.reduction === 'sum' ? 1 : rows);
  lossValue.dispose();
  prediction.dispose();
  let dy = seed;
  for (let i = model.layers.length - 1; i >= 0; i--) {
    const layer = model.layers[i]!;
    // The timeline names each layer's backward: 'backward (layer 3)'.
    sim?.setLabel(`backward (layer ${i})`);
    const t0 = now();
    const input = inputs[i]!;
    const params = await hooks.paramsFor(i, 'backward');
    let dx: tf.Tensor;
    let grads: tf.Tensor[];
    if (isCollectiveLayer(layer)) {
      const out = await layer.backwardCollective(dy, saved[i]!, params, opts.dist!);
      tf.dispose(Object.values(saved[i]!));
      ({ dx, grads } = out);
    } else {
      const buffers = model.layerBuffers[i]!.map((k) => model.buffers[k]!);
      // tf.grads runs the layer's forward again; PyTorch keeps the activations, so virtual time does not charge it.
      const all = tf.grads((xi: tf.Tensor, ...p: tf.Tensor[]) =>
        sim
          ? sim.uncharged(() => layer.apply(xi, p, true, buffers))
          : layer.apply(xi, p, true, buffers),
      )([input, ...params], dy);
      dx = all[0]!;
      grads = all.slice(1);
    }
    hooks.releaseParams(i, params);
    dy.dispose();
    if (i > 0) ledger?.free(input);
    dy = dx;
    record?.({ kind: 'backward', label: `${i}.${layer.kind}`, start: t0, end: now(), layer: i });
    if (grads.length) await hooks.onGrads(i, grads);
    await yieldToEventLoop();
  }
  dy.dispose();
  if (label !== undefined) sim?.setLabel(label);
  return { lossSum, rows };
}

function assignBuffers(model: Sequential, layer: number, values: tf.Tensor[]): void {
  model.layerBuffers[layer]!.forEach((k, j) => model.buffers[k]!.assign(values[j]!));
  tf.dispose(values);
}
