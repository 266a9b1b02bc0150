import * as tf from '@tensorflow/tfjs';
import { broadcastFromRankZero } from './broadcast-from-rank-zero.ts';
import {
  afterPending,
  DataParallelBase,
  type DataParallelOptions,
  type PendingCollective,
} from './data-parallel-base.ts';
import { flattenPadded, type FlatGroup } from './flat-shards.ts';
import type { LayerHooks } from './layerwise-backward.ts';
import { mseLoss, type RowLoss } from './losses.ts';
import { initialState } from './optimizers.ts';
import { resolveDist } from './resolve-dist.ts';
import { toSequential, type TrainableModel } from './sequential.ts';
import { replicatedParameters, shardedParameters, type ZeroParameters } from './zero-parameters.ts';

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
  /** Replicated (stages 1, 2) or sharded (stage 3) parameters, chosen here once. */
  private readonly parameters: ZeroParameters;
  /** Stage 1 keeps every gradient until the backward ends; 2 and 3 reduce-scatter them as they come. */
  private readonly shardGradientsEarly: boolean;
  private readonly gradShards: (tf.Tensor | null)[];
  private readonly state: tf.Tensor[][];

  constructor(model: TrainableModel, opts: ZeroOptions) {
    super(toSequential(model), resolveDist(opts.dist), opts);
    this.stage = opts.stage;
    const ctx = {
      model: this.model,
      dist: this.dist,
      ledger: this.ledger,
      track: this.track.bind(this),
    };
    this.parameters =
      this.stage === 3
        ? shardedParameters(ctx)
        : replicatedParameters(ctx, {
            bucketCapMB: opts.bucketCapMB,
            firstBucketCapMB: opts.firstBucketCapMB,
          });
    this.shardGradientsEarly = this.stage > 1;
    this.groups = this.parameters.groups;
    this.gradShards = this.groups.map(() => null);
    this.state = this.groups.map((g) => initialState(this.optimizer, [g.chunk]));
    this.ledger.hold('optimizerState', ...this.state.flat());
  }

  /** Start from rank 0's parameters; stage 3 then keeps only this rank's shard and frees the full copies. */
  async init(): Promise<void> {
    await broadcastFromRankZero(this.dist, [...this.model.params, ...this.model.buffers]);
    this.parameters.init();
  }

  async backward(x: tf.Tensor, target: tf.Tensor, loss: RowLoss = mseLoss): Promise<number> {
    const syncing = this.syncing;
    const launched: (PendingCollective | null)[] = this.groups.map(() => null);
    const ready = new Set<number>();
    const launchReady = () => {
      this.groups.forEach((g, i) => {
        if (!launched[i] && g.params.every((k) => ready.has(k)))
          launched[i] = this.launchReduceScatter(i);
      });
    };
    const hooks: LayerHooks = {
      paramsFor: (layer, phase) => this.parameters.paramsFor(layer, phase),
      releaseParams: (layer, params) => this.parameters.release(layer, params),
      onGrads: (layer, grads) => {
        for (const k of this.accumulate(layer, grads)) ready.add(k);
        if (syncing && this.shardGradientsEarly) launchReady();
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

  /** Flatten a group's accumulated gradients, free them, and start the reduce-scatter (sum). */
  private launchReduceScatter(i: number): PendingCollective {
    const group = this.groups[i]!;
    const flat = flattenPadded(
      group,
      group.params.map((k) => this.localGrads[k]!),
    );
    this.ledger.hold('buckets', flat);
    for (const k of group.params) {
      this.ledger.free(this.localGrads[k]!);
      this.localGrads[k] = null;
    }
    const pending = this.track(
      'reduceScatter',
      `group ${i}`,
      flat.size * 4,
      this.dist.reduceScatter(flat, { op: 'sum', async: true }),
    );
    return afterPending(pending, (t) => (this.ledger.free(flat), t));
  }

  async step(): Promise<void> {
    this.steps++;
    // The update is compute (one span); the parameter all-gathers it launches are tracked on their own.
    const spreads = this.timed('optimizer', 'step', () =>
      this.groups.map((_, i) => {
        const grad = this.gradShards[i];
        if (!grad)
          throw new Error(
            'ZeRO.step: no synchronized gradient shard (call backward outside noSync first)',
          );
        const own = this.parameters.ownSlice(i);
        const out = this.optimizerUpdate(own, grad, this.state[i]!);
        own.dispose();
        this.ledger.free(...this.state[i]!, grad);
        this.ledger.hold('optimizerState', ...out.state);
        this.state[i] = out.state;
        this.gradShards[i] = null;
        return this.parameters.updated(i, out.param);
      }),
    );
    for (let i = 0; i < this.groups.length; i++) {
      if (spreads[i]) this.parameters.finish(i, await spreads[i]!.done);
    }
    await this.endVirtualStep();
  }

  async snapshot(): Promise<Record<string, Float32Array>> {
    return this.parameters.snapshot();
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
