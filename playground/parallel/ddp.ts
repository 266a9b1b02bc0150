import * as tf from '@tensorflow/tfjs';
import type { AllReduceAlgorithm } from '../collectives/dist-api.ts';
import { broadcastFromRankZero } from './broadcast-from-rank-zero.ts';
import { ChargedBucketPass, type ChargedPass } from './charged-job.ts';
import { DataParallelBase, type DataParallelOptions } from './data-parallel-base.ts';
import {
  chargedBuckets,
  constructionBuckets,
  describeBuckets,
  rebuiltBuckets,
  type BucketOptions,
  type GradientBucket,
} from './gradient-buckets.ts';
import type { LayerHooks } from './layerwise-backward.ts';
import { mseLoss, type RowLoss } from './losses.ts';
import { initialState } from './optimizers.ts';
import { resolveDist } from './resolve-dist.ts';
import { toSequential, type TrainableModel } from './sequential.ts';

export interface DDPOptions extends DataParallelOptions, BucketOptions {
  /** Broadcast rank 0's buffers (BatchNorm running stats) before every forward, as PyTorch does by default. */
  broadcastBuffers?: boolean;
  /**
   * true: gradients live in the bucket buffers (one copy of gradient memory).
   * false (PyTorch default): per-parameter gradients and persistent bucket buffers, two copies.
   */
  gradientAsBucketView?: boolean;
  /** false: all-reduce every bucket only after the whole backward (no overlap), the baseline the bench compares against. */
  overlap?: boolean;
  /** Passed to every bucket's all-reduce (default 'auto': the runtime picks by size). */
  allReduceAlgorithm?: AllReduceAlgorithm;
}

/**
 * DistributedDataParallel: one full replica per rank, gradients all-reduced in buckets that launch
 * as soon as their gradients exist, so communication overlaps the rest of the backward pass.
 */
export class DistributedDataParallel extends DataParallelBase {
  readonly findUnusedParameters: boolean;
  /** The bucket assignment in use: one bucket at construction (by default), rebuilt once after the first synced backward. */
  get buckets(): readonly GradientBucket[] {
    return this.bucketList;
  }
  /** True once the buckets were rebuilt in gradient-arrival order (never with `findUnusedParameters`). */
  get bucketsRebuilt(): boolean {
    return this.rebuilt;
  }
  private bucketList: GradientBucket[];
  private rebuilt = false;
  /** Parameter indices in the order their gradients arrived during the first synced backward. */
  private arrival: number[] = [];
  private readonly bucketOptions: BucketOptions;
  readonly broadcastBuffers: boolean;
  readonly gradientAsBucketView: boolean;
  readonly overlap: boolean;
  readonly allReduceAlgorithm: AllReduceAlgorithm;
  /** Synchronized gradients, one per parameter, ready for `step()`. */
  readonly grads: (tf.Tensor | null)[];
  /** Optimizer state per parameter; empty for parameters whose state another rank keeps. */
  protected readonly state: tf.Tensor[][];
  private bucketBuffers: (tf.Tensor | null)[];
  /** This backward's buckets of the charged model, under a named chargeAs. */
  private chargedBucketPass: ChargedBucketPass | null = null;

  constructor(model: TrainableModel, opts: DDPOptions) {
    super(toSequential(model), resolveDist(opts.dist), opts);
    model = this.model;
    this.broadcastBuffers = opts.broadcastBuffers ?? true;
    this.gradientAsBucketView = opts.gradientAsBucketView ?? false;
    this.overlap = opts.overlap ?? true;
    this.allReduceAlgorithm = opts.allReduceAlgorithm ?? 'auto';
    this.findUnusedParameters = opts.findUnusedParameters ?? false;
    this.bucketOptions = {
      bucketCapMB: opts.bucketCapMB,
      firstBucketCapMB: opts.firstBucketCapMB,
      findUnusedParameters: this.findUnusedParameters,
    };
    this.bucketList = constructionBuckets(this.paramBytes(), this.bucketOptions);
    this.grads = model.params.map(() => null);
    this.bucketBuffers = this.bucketList.map(() => null);
    this.state = model.params.map((p, k) =>
      this.keepsStateOf(k) ? initialState(this.optimizer, p.shape) : [],
    );
    this.ledger.hold('params', ...model.params);
    this.ledger.hold('optimizerState', ...this.state.flat());
  }

  /** Make every rank start from rank 0's parameters and buffers. */
  async broadcastFromRankZero(): Promise<void> {
    await broadcastFromRankZero(this.dist, [...this.model.params, ...this.model.buffers]);
  }

  private paramBytes(): number[] {
    return this.model.params.map((p) => p.size * 4);
  }

  protected override supportsChargedJob(): boolean {
    return true;
  }

  /** The charged model's buckets, cut as PyTorch cuts them, in the same phase (before or after the rebuild) as the toy's. */
  protected override startChargedPass(pass: ChargedPass): void {
    if (!this.syncing) {
      this.chargedBucketPass = null;
      return;
    }
    const buckets = chargedBuckets(
      pass.model,
      pass.bytesPerElement,
      this.rebuilt,
      this.bucketOptions,
    );
    this.chargedBucketPass = new ChargedBucketPass(pass, buckets, this.overlap);
    pass.sim.setChargedSizes(describeBuckets(buckets, this.bucketOptions, this.rebuilt));
  }

  protected override chargedLayer(kind: 'forward' | 'backward', layer: number): void {
    if (kind === 'backward' && this.chargedBucketPass) this.chargedBucketPass.backward(layer);
    else super.chargedLayer(kind, layer);
  }

  /** Whether this backward records gradient arrival: the first synced one, unless unused parameters are searched for. */
  private get recording(): boolean {
    return !this.rebuilt && !this.findUnusedParameters && this.syncing;
  }

  /** Like `Reducer::rebuild_buckets`, called before the forward after the first synced backward: once, in arrival order. */
  private rebuildBuckets(): void {
    if (
      this.rebuilt ||
      this.findUnusedParameters ||
      this.arrival.length !== this.model.params.length
    )
      return;
    this.bucketList = rebuiltBuckets(this.paramBytes(), this.arrival, this.bucketOptions);
    for (const buffer of this.bucketBuffers) if (buffer) this.ledger.free(buffer);
    this.bucketBuffers = this.bucketList.map(() => null);
    this.rebuilt = true;
  }

  async backward(x: tf.Tensor, target: tf.Tensor, loss: RowLoss = mseLoss): Promise<number> {
    this.rebuildBuckets();
    // Like PyTorch, buffers are broadcast before every forward, inside noSync too (it only skips the gradient sync).
    if (this.broadcastBuffers) await broadcastFromRankZero(this.dist, this.model.buffers);
    const syncing = this.syncing;
    const recording = this.recording;
    const finished: (PromiseLike<void> | null)[] = this.buckets.map(() => null);
    // Simulated: buckets are unpacked at the sync point in bucket order, so no kernel is charged at a
    // moment that depends on when this machine finished a collective.
    const deferred: (() => Promise<void>)[] = [];
    const ready = new Set<number>();
    // Launches run synchronously inside the layer loop, so every rank calls its collectives in the same order.
    const launchReady = (scale: number) => {
      this.buckets.forEach((bucket, b) => {
        if (!finished[b] && bucket.params.every((k) => ready.has(k)))
          finished[b] = this.launchBucket(b, scale, deferred);
      });
    };
    const hooks: LayerHooks = {
      paramsFor: async (layer) => this.model.layerParams[layer]!.map((k) => this.model.params[k]!),
      releaseParams: () => {},
      onGrads: async (layer, grads) => {
        const indices = this.accumulate(layer, grads);
        for (const k of indices) ready.add(k);
        // A layer's gradients come out of one tf.grads call; they are recorded last-declared first, as a sequential model's reverse registration order.
        if (recording) this.arrival.push(...[...indices].reverse());
        // The row count was all-reduced before the forward, so this wait is normally already over.
        if (syncing && this.overlap) launchReady(1 / (await this.divisor!));
      },
    };
    const { meanLoss, divisor } = await this.runPass(x, target, loss, hooks);
    if (!syncing) return meanLoss;
    const charged = this.chargedBucketPass;
    this.chargedBucketPass = null;
    if (charged) await charged.sync(this.dist);
    launchReady(1 / (await divisor!));
    await Promise.all(finished);
    for (const unpack of deferred) await unpack();
    return meanLoss;
  }

  /**
   * Flatten one bucket's accumulated gradients, pre-divided by the total row count as PyTorch divides
   * before its all-reduce, start the all-reduce (sum), and unpack the result as soon as it arrives.
   */
  private launchBucket(
    b: number,
    scale: number,
    deferred: (() => Promise<void>)[],
  ): PromiseLike<void> {
    const bucket = this.buckets[b]!;
    const flat = tf.tidy(() => {
      const joined = tf.concat(bucket.params.map((k) => tf.reshape(this.localGrads[k]!, [-1])));
      return scale === 1 ? joined : tf.mul(joined, scale);
    });
    this.ledger.hold('buckets', flat);
    // As a bucket view the gradient memory now is the bucket; otherwise both copies stay alive.
    if (this.gradientAsBucketView) for (const k of bucket.params) this.dropLocal(k);
    const issue = () =>
      this.dist.allReduce(flat, { op: 'sum', algorithm: this.allReduceAlgorithm, async: true });
    const sim = this.context.sim;
    // Under a named charged model the toy's buckets only carry its arithmetic: no virtual time.
    const pending = this.track(
      'allReduce',
      `bucket ${b}`,
      flat.size * 4,
      sim && this.chargedPass && sim.chargedModel ? sim.ghost(issue) : issue(),
    );
    const unpack = (reduced: tf.Tensor) => {
      this.ledger.free(flat);
      this.finishBucket(b, reduced);
    };
    if (!this.context.sim) return pending.done.then(unpack);
    deferred.push(async () => unpack(await pending.done));
    return Promise.resolve();
  }

  /** Split the reduced bucket back into per-parameter gradients. */
  private finishBucket(b: number, scaled: tf.Tensor): void {
    const bucket = this.buckets[b]!;
    const sizes = bucket.params.map((k) => this.model.params[k]!.size);
    const parts = tf.split(scaled, sizes);
    bucket.params.forEach((k, j) => {
      this.dropLocal(k);
      if (this.grads[k]) this.ledger.free(this.grads[k]!);
      const g = tf.reshape(parts[j]!, this.model.params[k]!.shape);
      this.ledger.hold('grads', g);
      this.grads[k] = g;
    });
    tf.dispose(parts);
    if (this.gradientAsBucketView) scaled.dispose();
    else {
      // PyTorch keeps the bucket buffers between steps when gradients are not views of them.
      if (this.bucketBuffers[b]) this.ledger.free(this.bucketBuffers[b]!);
      this.ledger.hold('buckets', scaled);
      this.bucketBuffers[b] = scaled;
    }
  }

  private dropLocal(k: number): void {
    const g = this.localGrads[k];
    if (g) this.ledger.free(g);
    this.localGrads[k] = null;
  }

  /** Whether this rank keeps the optimizer state of parameter `k` (every one under DDP). Called from the constructor. */
  protected keepsStateOf(_k: number): boolean {
    return true;
  }

  async step(): Promise<void> {
    await this.applyUpdate();
    await this.endVirtualStep();
  }

  /** The optimizer update of step(), before the step ends in virtual time. */
  protected async applyUpdate(): Promise<void> {
    this.steps++;
    this.timed('optimizer', 'step', () =>
      this.model.params.forEach((p, k) => {
        const g = this.grads[k];
        if (!g)
          throw new Error(
            `${this.constructor.name}.step: no synchronized gradient for ${this.model.paramNames[k]} (call backward outside noSync first)`,
          );
        if (this.keepsStateOf(k)) {
          const out = this.optimizerUpdate(p, g, this.state[k]!);
          p.assign(out.param);
          out.param.dispose();
          this.ledger.free(...this.state[k]!);
          this.ledger.hold('optimizerState', ...out.state);
          this.state[k] = out.state;
        }
        this.ledger.free(g);
        this.grads[k] = null;
      }),
    );
  }

  async snapshot(): Promise<Record<string, Float32Array>> {
    return this.model.snapshot();
  }
}

/**
 * Wraps `model` for data-parallel training with bucketed, overlapped gradient all-reduce, after making
 * every rank start from rank 0's parameters.
 * @example const ddp = await DDP(mlp([4, 8, 3], { seed: 1 }), { optimizer: new Adam({ lr: 0.01 }) });
 */
export async function DDP(
  model: TrainableModel,
  opts: DDPOptions,
): Promise<DistributedDataParallel> {
  const ddp = new DistributedDataParallel(model, opts);
  await ddp.broadcastFromRankZero();
  return ddp;
}
