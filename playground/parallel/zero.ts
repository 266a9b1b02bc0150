import * as tf from '@tensorflow/tfjs';
import { broadcastFromRankZero } from './broadcastFromRankZero.ts';
import { DataParallelBase, type DataParallelOptions, type PendingCollective } from './dataParallelBase.ts';
import { planBuckets } from './gradientBuckets.ts';
import { flatGroup, flattenPadded, ownChunk, unflatten, type FlatGroup } from './flatShards.ts';
import type { LayerHooks } from './layerwiseBackward.ts';
import { mseLoss, type RowLoss } from './losses.ts';
import { initialState } from './optimizers.ts';
import { resolveDist } from './resolveDist.ts';
import { toSequential, type TrainableModel } from './sequential.ts';

/** 1: shard optimizer state. 2: also shard gradients. 3: also shard parameters. */
export type ZeroStage = 1 | 2 | 3;

export interface ZeroOptions extends DataParallelOptions {
  stage: ZeroStage;
  /** Stages 1 and 2 reduce-scatter gradients in DDP-style buckets of this cap (MiB). */
  bucketCapMB?: number;
  firstBucketCapMB?: number;
}

/**
 * ZeRO data parallelism. Every stage reduce-scatters gradients so each rank gets the summed gradient
 * of only its shard, updates only its shard with only its shard of optimizer state (state never moves),
 * and all-gathers parameters. Stage 1 keeps full gradients until the backward ends; stage 2 frees each
 * bucket's gradients as soon as it is reduce-scattered; stage 3 keeps only a parameter shard and
 * all-gathers each layer's parameters just before its forward and again before its backward.
 */
export class ZeroRedundancy extends DataParallelBase {
  readonly stage: ZeroStage;
  /** Stage 1/2: buckets; stage 3: one group per layer with parameters (the FSDP unit). */
  readonly groups: readonly FlatGroup[];
  private readonly layerGroup: (number | null)[];
  private readonly paramShards: (tf.Tensor | null)[];
  private readonly gradShards: (tf.Tensor | null)[];
  private readonly state: tf.Tensor[][];
  private readonly shapes: number[][];

  constructor(model: TrainableModel, opts: ZeroOptions) {
    super(toSequential(model), resolveDist(opts.dist), opts);
    model = this.model;
    this.stage = opts.stage;
    const w = this.dist.worldSize;
    const sizes = model.params.map((p) => p.size);
    this.shapes = model.params.map((p) => p.shape);
    if (this.stage === 3) {
      this.groups = model.layerParams.filter((ps) => ps.length).map((ps) => flatGroup(ps, ps.map((k) => sizes[k]!), w));
      let g = 0;
      this.layerGroup = model.layerParams.map((ps) => (ps.length ? g++ : null));
    } else {
      const buckets = planBuckets(sizes.map((n) => n * 4), { bucketCapMB: opts.bucketCapMB, firstBucketCapMB: opts.firstBucketCapMB });
      this.groups = buckets.map((b) => flatGroup(b.params, b.params.map((k) => sizes[k]!), w));
      this.layerGroup = model.layerParams.map(() => null);
    }
    this.paramShards = this.groups.map(() => null);
    this.gradShards = this.groups.map(() => null);
    this.state = this.groups.map((g) => initialState(this.optimizer, [g.chunk]));
    this.ledger.hold('optimizerState', ...this.state.flat());
  }

  /** Start from rank 0's parameters; stage 3 then keeps only this rank's shard and frees the full copies. */
  async init(): Promise<void> {
    await broadcastFromRankZero(this.dist, [...this.model.params, ...this.model.buffers]);
    if (this.stage < 3) {
      this.ledger.hold('params', ...this.model.params);
      return;
    }
    this.groups.forEach((g, i) => {
      const flat = flattenPadded(g, g.params.map((k) => this.model.params[k]!));
      const shard = ownChunk(g, flat, this.dist.rank);
      flat.dispose();
      this.ledger.hold('params', shard);
      this.paramShards[i] = shard;
    });
    for (const p of this.model.params) p.dispose();
  }

  async backward(x: tf.Tensor, target: tf.Tensor, loss: RowLoss = mseLoss): Promise<number> {
    const syncing = this.syncing;
    const launched: (PendingCollective | null)[] = this.groups.map(() => null);
    const ready = new Set<number>();
    const launchReady = () => {
      this.groups.forEach((g, i) => {
        if (!launched[i] && g.params.every((k) => ready.has(k))) launched[i] = this.launchReduceScatter(i);
      });
    };
    const hooks: LayerHooks = {
      paramsFor: async (layer, phase) => this.layerParams(layer, phase),
      releaseParams: (layer, params) => {
        if (this.stage === 3 && this.layerGroup[layer] !== null) this.ledger.free(...params);
      },
      onGrads: (layer, grads) => {
        for (const k of this.accumulate(layer, grads)) ready.add(k);
        // Stage 1 holds every gradient until the backward ends; 2 and 3 shard them as they come.
        if (syncing && this.stage > 1) launchReady();
      },
    };
    const { meanLoss, divisor } = await this.runPass(x, target, loss, hooks);
    if (!syncing) return meanLoss;
    launchReady();
    const total = await divisor!;
    for (let i = 0; i < this.groups.length; i++) {
      const shard = await launched[i]!.done;
      const scaled = tf.mul(shard, 1 / total);
      shard.dispose();
      if (this.gradShards[i]) this.ledger.free(this.gradShards[i]!);
      this.ledger.hold('grads', scaled);
      this.gradShards[i] = scaled;
    }
    return meanLoss;
  }

  /** Full parameters of one layer: the model's own variables, or (stage 3) an all-gather of the shards. */
  private async layerParams(layer: number, phase: 'forward' | 'backward'): Promise<tf.Tensor[]> {
    const g = this.layerGroup[layer];
    if (this.stage < 3 || g === null || g === undefined) return this.model.layerParams[layer]!.map((k) => this.model.params[k]!);
    const group = this.groups[g]!;
    const pending = this.track('allGather', `${phase} layer ${layer}`, group.chunk * 4, this.dist.allGather(this.paramShards[g]!, { async: true }));
    const gathered = await pending.done;
    const params = unflatten(group, gathered, group.params.map((k) => this.shapes[k]!));
    gathered.dispose();
    this.ledger.hold('gathered', ...params);
    return params;
  }

  /** Flatten a group's accumulated gradients, free them, and start the reduce-scatter (sum). */
  private launchReduceScatter(i: number): PendingCollective {
    const group = this.groups[i]!;
    const flat = flattenPadded(group, group.params.map((k) => this.localGrads[k]!));
    this.ledger.hold('buckets', flat);
    for (const k of group.params) {
      this.ledger.free(this.localGrads[k]!);
      this.localGrads[k] = null;
    }
    const pending = this.track('reduceScatter', `group ${i}`, flat.size * 4, this.dist.reduceScatter(flat, { op: 'sum', async: true }));
    return { done: pending.done.then((t) => (this.ledger.free(flat), t)) };
  }

  async step(): Promise<void> {
    this.steps++;
    // The update is compute (one span); the parameter all-gathers it launches are tracked on their own.
    const gathers: (PendingCollective | null)[] = this.timed('optimizer', 'step', () => this.groups.map((group, i) => {
      const grad = this.gradShards[i];
      if (!grad) throw new Error('ZeRO.step: no synchronized gradient shard (call backward outside noSync first)');
      const own = this.stage === 3 ? this.paramShards[i]! : this.ownParamChunk(group);
      const out = this.optimizer.update(own, grad, this.state[i]!, this.steps);
      this.ledger.free(...this.state[i]!, grad);
      this.ledger.hold('optimizerState', ...out.state);
      this.state[i] = out.state;
      this.gradShards[i] = null;
      if (this.stage === 3) {
        this.ledger.free(own);
        this.ledger.hold('params', out.param);
        this.paramShards[i] = out.param;
        return null;
      }
      own.dispose();
      this.ledger.hold('gathered', out.param);
      const pending = this.track('allGather', `params ${i}`, group.chunk * 4, this.dist.allGather(out.param, { async: true }));
      return { done: pending.done.then((t) => (this.ledger.free(out.param), t)) };
    }));
    for (let i = 0; i < this.groups.length; i++) {
      if (!gathers[i]) continue;
      const group = this.groups[i]!;
      const full = await gathers[i]!.done;
      const values = unflatten(group, full, group.params.map((k) => this.shapes[k]!));
      full.dispose();
      group.params.forEach((k, j) => this.model.params[k]!.assign(values[j]!));
      tf.dispose(values);
    }
  }

  /** This rank's slice of a group's current (replicated) parameters. */
  private ownParamChunk(group: FlatGroup): tf.Tensor {
    return tf.tidy(() => ownChunk(group, flattenPadded(group, group.params.map((k) => this.model.params[k]!)), this.dist.rank));
  }

  async snapshot(): Promise<Record<string, Float32Array>> {
    if (this.stage < 3) return this.model.snapshot();
    const out: Record<string, Float32Array> = {};
    for (let i = 0; i < this.groups.length; i++) {
      const group = this.groups[i]!;
      const gathered = await this.dist.allGather(this.paramShards[i]!);
      const values = unflatten(group, gathered, group.params.map((k) => this.shapes[k]!));
      gathered.dispose();
      for (let j = 0; j < values.length; j++) out[this.model.paramNames[group.params[j]!]!] = (await values[j]!.data()) as Float32Array;
      tf.dispose(values);
    }
    return out;
  }
}

/**
 * Wraps `model` for ZeRO stage 1, 2 or 3 training after syncing every rank to rank 0's parameters.
 * @example const zero = await ZeRO(model, { stage: 2, optimizer: new Adam({ lr: 0.01 }) });
 */
export async function ZeRO(model: TrainableModel, opts: ZeroOptions): Promise<ZeroRedundancy> {
  const zero = new ZeroRedundancy(model, opts);
  await zero.init();
  return zero;
}
