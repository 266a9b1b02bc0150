import * as tf from '@tensorflow/tfjs';
import type { ProcessGroupHandle } from '../collectives/dist-api.ts';
import { broadcastFromRankZero } from './broadcast-from-rank-zero.ts';
import {
  afterPending,
  DataParallelBase,
  type DataParallelOptions,
  type PendingCollective,
} from './data-parallel-base.ts';
import { meshGroups, type DeviceMesh, type MeshGroups } from './device-mesh.ts';
import { dim0Layout, fromChunks, padToChunks, shardOf, type Dim0Layout } from './dim0-shards.ts';
import type { LayerHooks } from './layerwise-backward.ts';
import { mseLoss, type RowLoss } from './losses.ts';
import { initialState } from './optimizers.ts';
import { resolveDist } from './resolve-dist.ts';
import { toSequential, type TrainableModel } from './sequential.ts';

export interface FullyShardOptions extends DataParallelOptions {
  /**
   * true (default for every unit but a root with no parameters): free the unsharded parameters after
   * forward and all-gather them again in backward. false: keep them until backward is done (no backward
   * all-gather, more memory). An int k: after forward keep them sharded over groups of k ranks, so the
   * backward all-gather runs within k ranks (k must divide the shard group size; 1 means false).
   */
  reshardAfterForward?: boolean | number;
  /** 1-D: shard over every rank (FSDP). 2-D [replicate, shard]: shard within a row, replicate across rows (HSDP). */
  mesh?: DeviceMesh;
  /**
   * How many units ahead each unit issues all-gathers in forward, before its own compute. Default 1;
   * 0 turns prefetch off (a unit's all-gather is issued when the unit is reached). PyTorch's FSDP2 takes
   * a list of modules per module (`FSDPModule.set_modules_to_forward_prefetch`); here one count serves
   * every unit. Without it FSDP2 still overlaps on a GPU because the CPU runs ahead of the kernels; a
   * rank here issues in program order at its compute clock (like a CPU-bound host), so 0 exposes them.
   */
  forwardPrefetch?: number;
  /**
   * How many units ahead (in backward order) each unit issues all-gathers in backward, before its
   * gradient computation. Default 1, FSDP2's implicit prefetch (`FSDPParamGroup._backward_prefetch`, by
   * reverse post-forward order) and FSDP1's `BackwardPrefetch.BACKWARD_PRE`; a list per module is
   * `set_modules_to_backward_prefetch`. 0 is FSDP1's `backward_prefetch=None`: the next all-gather is
   * issued after this unit's reduce-scatter and waits behind it on the communication stream.
   */
  backwardPrefetch?: number;
}

/** One `fully_shard` unit: a layer's parameters, all-gathered in one collective and reduce-scattered in one. */
export interface FullyShardUnit {
  readonly layer: number;
  readonly params: readonly number[];
  readonly layouts: readonly Dim0Layout[];
  /** Layouts over the post-forward group when `reshardAfterForward` is an int. */
  readonly postLayouts: readonly Dim0Layout[] | null;
}

/**
 * FSDP2 (`torch.distributed.fsdp.fully_shard`) over a {@link Sequential}: one unit per layer with
 * parameters, each parameter sharded on dim 0 across the shard group (uneven dim 0 padded with zero rows,
 * as DTensor's `Shard(0)` does), all-gathered per unit before its forward and again before its backward,
 * with the next unit's all-gather issued before this unit computes (prefetch, `forwardPrefetch` and
 * `backwardPrefetch` units ahead), and gradients reduce-scattered per unit as soon as its backward ends (then all-reduced across replicas under HSDP).
 */
export class FullyShardedDataParallel extends DataParallelBase {
  readonly reshardAfterForward: boolean | number;
  readonly forwardPrefetch: number;
  readonly backwardPrefetch: number;
  readonly mesh: MeshGroups;
  readonly units: readonly FullyShardUnit[];
  private readonly unitOfLayer: (number | null)[];
  private readonly postForwardGroup: ProcessGroupHandle | null;
  /** This rank's padded dim-0 shard of every parameter (flat), and its optimizer state. */
  private readonly shards: tf.Tensor[];
  private readonly gradShards: (tf.Tensor | null)[];
  private readonly state: tf.Tensor[][];
  /** All-gathers in flight or done, by unit, for the current phase. */
  private readonly gathers = new Map<number, PendingCollective>();
  /** Unsharded parameters kept from forward to backward (reshardAfterForward false), or post-forward shards (int). */
  private readonly kept = new Map<number, tf.Tensor[]>();

  constructor(model: TrainableModel, opts: FullyShardOptions) {
    super(toSequential(model), resolveDist(opts.dist), opts);
    const reshard = opts.reshardAfterForward ?? true;
    this.forwardPrefetch = prefetchCount('forwardPrefetch', opts.forwardPrefetch);
    this.backwardPrefetch = prefetchCount('backwardPrefetch', opts.backwardPrefetch);
    this.mesh = meshGroups(this.dist, opts.mesh);
    const s = this.mesh.shardSize;
    if (
      typeof reshard === 'number' &&
      (!Number.isInteger(reshard) || reshard < 1 || reshard > s || s % reshard !== 0)
    ) {
      throw new Error(
        `fullyShard: reshardAfterForward as a number is the group size to reshard to after forward; it must divide the shard group size ${s}, not ${reshard}`,
      );
    }
    // As in PyTorch, resharding to one rank is keeping the whole parameter, and to the whole group is true.
    this.reshardAfterForward = reshard === 1 ? false : reshard === s ? true : reshard;
    const k = typeof this.reshardAfterForward === 'number' ? this.reshardAfterForward : 0;
    if (k) {
      const start = Math.floor(this.mesh.shardRank / k) * k;
      this.postForwardGroup = this.dist.newGroup(this.mesh.shardMembers.slice(start, start + k));
    } else this.postForwardGroup = null;
    const shapes = this.model.params.map((p) => p.shape);
    const units: FullyShardUnit[] = [];
    this.unitOfLayer = this.model.layerParams.map((ps, layer) => {
      if (!ps.length) return null;
      units.push({
        layer,
        params: ps,
        layouts: ps.map((i) => dim0Layout(shapes[i]!, s)),
        postLayouts: k ? ps.map((i) => dim0Layout(shapes[i]!, k)) : null,
      });
      return units.length - 1;
    });
    this.units = units;
    this.shards = [];
    this.gradShards = this.model.params.map(() => null);
    this.state = this.units.flatMap((u) =>
      u.layouts.map((l) => initialState(this.optimizer, [l.chunk])),
    );
    this.ledger.hold('optimizerState', ...this.state.flat());
  }

  /** Start from rank 0's parameters, then keep only this rank's dim-0 shard of each and free the full ones. */
  async init(): Promise<void> {
    await broadcastFromRankZero(this.dist, [...this.model.params, ...this.model.buffers]);
    for (const u of this.units)
      u.params.forEach((i, j) =>
        this.shards.push(shardOf(u.layouts[j]!, this.model.params[i]!, this.mesh.shardRank)),
      );
    this.ledger.hold('params', ...this.shards);
    for (const p of this.model.params) p.dispose();
  }

  /** Index into `shards`/`state` of unit `u`'s `j`-th parameter. */
  private slot(u: number, j: number): number {
    let n = j;
    for (let v = 0; v < u; v++) n += this.units[v]!.params.length;
    return n;
  }

  /** Issue unit `u`'s all-gather (over the shard group, or the post-forward group in backward after an int reshard). */
  private gather(u: number, phase: 'forward' | 'backward'): PendingCollective {
    const existing = this.gathers.get(u);
    if (existing) return existing;
    const unit = this.units[u]!;
    const post = phase === 'backward' && unit.postLayouts ? this.kept.get(u)! : null;
    const pieces = post ?? unit.params.map((_, j) => this.shards[this.slot(u, j)]!);
    const input = tf.tidy(() => tf.concat(pieces.map((t) => tf.reshape(t, [-1]))));
    const group = post ? this.postForwardGroup! : this.mesh.shard;
    const pending = this.track(
      'allGather',
      `${phase} unit ${u} (layer ${unit.layer})`,
      input.size * 4,
      this.dist.allGather(input, { async: true, group }),
    );
    const entry = afterPending(pending, (all) => {
      input.dispose();
      // A prefetched unit occupies memory from its arrival, before the unit ahead of it is freed.
      this.ledger.hold('gathered', all);
      return all;
    });
    this.gathers.set(u, entry);
    return entry;
  }

  /** Unit `u`'s full parameters out of an all-gather result [groupSize, Σ chunks]. */
  private unpack(u: number, all: tf.Tensor, layouts: readonly Dim0Layout[]): tf.Tensor[] {
    return tf.tidy(() => {
      const size = layouts[0]!.size;
      const rows = tf.reshape(all, [size, -1]);
      let offset = 0;
      return layouts.map((l) => {
        const part = tf.slice(rows, [0, offset], [size, l.chunk]);
        offset += l.chunk;
        return fromChunks(l, part);
      });
    });
  }

  /** The units whose all-gathers unit `u` issues ahead of its compute in `phase`, nearest first. */
  private prefetchTargets(u: number, phase: 'forward' | 'backward'): number[] {
    const ahead = phase === 'forward' ? this.forwardPrefetch : this.backwardPrefetch;
    const step = phase === 'forward' ? 1 : -1;
    return Array.from({ length: ahead }, (_, i) => u + step * (i + 1)).filter(
      (v) => v >= 0 && v < this.units.length,
    );
  }

  private needsBackwardGather(): boolean {
    return this.reshardAfterForward !== false;
  }

  private async paramsFor(layer: number, phase: 'forward' | 'backward'): Promise<tf.Tensor[]> {
    const u = this.unitOfLayer[layer];
    if (u === null || u === undefined) return [];
    const unit = this.units[u]!;
    if (phase === 'backward' && !this.needsBackwardGather()) return this.kept.get(u)!;
    const pending = this.gather(u, phase);
    // Prefetch: issue the next units' all-gathers before computing this one, so they arrive during the compute.
    for (const next of this.prefetchTargets(u, phase)) this.gather(next, phase);
    const all = await pending.done;
    this.gathers.delete(u);
    const params = this.unpack(
      u,
      all,
      phase === 'backward' && unit.postLayouts ? unit.postLayouts : unit.layouts,
    );
    // FSDP2 copies out of the all-gather buffer into the parameters; count them as one allocation.
    this.ledger.free(all);
    this.ledger.hold('gathered', ...params);
    return params;
  }

  private releaseParams(layer: number, params: tf.Tensor[], phase: 'forward' | 'backward'): void {
    const u = this.unitOfLayer[layer];
    if (u === null || u === undefined) return;
    const unit = this.units[u]!;
    if (phase === 'forward' && this.reshardAfterForward === false) {
      this.kept.set(u, params);
      return;
    }
    if (phase === 'forward' && unit.postLayouts) {
      // Reshard to the smaller group: keep this rank's piece over k ranks, free the rest.
      const rank = this.mesh.shardRank % unit.postLayouts[0]!.size;
      const pieces = params.map((p, j) => shardOf(unit.postLayouts![j]!, p, rank));
      this.ledger.hold('gathered', ...pieces);
      this.kept.set(u, pieces);
    } else if (phase === 'backward' && unit.postLayouts) {
      const pieces = this.kept.get(u);
      if (pieces) this.ledger.free(...pieces);
    }
    if (phase === 'backward') this.kept.delete(u);
    this.ledger.free(...params);
  }

  async backward(x: tf.Tensor, target: tf.Tensor, loss: RowLoss = mseLoss): Promise<number> {
    const syncing = this.syncing;
    const launched: (PendingCollective | null)[] = this.units.map(() => null);
    let phase: 'forward' | 'backward' = 'forward';
    const hooks: LayerHooks = {
      paramsFor: async (layer, p) => {
        phase = p;
        return this.paramsFor(layer, p);
      },
      releaseParams: (layer, params) => this.releaseParams(layer, params, phase),
      onGrads: (layer, grads) => {
        const indices = this.accumulate(layer, grads);
        const u = this.unitOfLayer[layer];
        if (syncing && u !== null && u !== undefined && indices.length)
          launched[u] = this.launchReduceScatter(u);
      },
    };
    const { meanLoss, divisor } = await this.runPass(x, target, loss, hooks);
    if (!syncing) return meanLoss;
    const total = await divisor!;
    for (let u = 0; u < this.units.length; u++) {
      let shard = await launched[u]!.done;
      if (this.mesh.replicate) {
        // HSDP: the reduce-scatter summed within the row; the all-reduce sums the rows.
        const summed = await this.track(
          'allReduce',
          `replicas unit ${u}`,
          shard.size * 4,
          this.dist.allReduce(shard, { op: 'sum', async: true, group: this.mesh.replicate }),
        ).done;
        shard.dispose();
        shard = summed;
      }
      const scaled = tf.mul(shard, 1 / total);
      shard.dispose();
      const parts = tf.split(
        scaled,
        this.units[u]!.layouts.map((l) => l.chunk),
      );
      scaled.dispose();
      this.units[u]!.params.forEach((_, j) => {
        const slot = this.slot(u, j);
        if (this.gradShards[slot]) this.ledger.free(this.gradShards[slot]!);
        this.ledger.hold('grads', parts[j]!);
        this.gradShards[slot] = parts[j]!;
      });
    }
    return meanLoss;
  }

  /** Pad each gradient's dim 0, lay the unit out as [shard ranks, Σ chunks], free the unsharded gradients, and reduce-scatter (sum). */
  private launchReduceScatter(u: number): PendingCollective {
    const unit = this.units[u]!;
    const input = tf.tidy(() =>
      tf.reshape(
        tf.concat(
          unit.params.map((k, j) => padToChunks(unit.layouts[j]!, this.localGrads[k]!)),
          1,
        ),
        [-1],
      ),
    );
    this.ledger.hold('buckets', input);
    for (const k of unit.params) {
      this.ledger.free(this.localGrads[k]!);
      this.localGrads[k] = null;
    }
    const pending = this.track(
      'reduceScatter',
      `unit ${u} (layer ${unit.layer})`,
      input.size * 4,
      this.dist.reduceScatter(input, { op: 'sum', async: true, group: this.mesh.shard }),
    );
    return afterPending(pending, (t) => (this.ledger.free(input), t));
  }

  async step(): Promise<void> {
    this.steps++;
    this.timed('optimizer', 'step', () =>
      this.shards.forEach((shard, slot) => {
        const grad = this.gradShards[slot];
        if (!grad)
          throw new Error(
            'fullyShard step: no reduced gradient shard (call backward outside noSync first)',
          );
        // Zero padding rows stay zero: their gradient is zero on every rank.
        const out = this.optimizerUpdate(shard, grad, this.state[slot]!);
        this.ledger.free(...this.state[slot]!, grad, shard);
        this.ledger.hold('optimizerState', ...out.state);
        this.ledger.hold('params', out.param);
        this.state[slot] = out.state;
        this.shards[slot] = out.param;
        this.gradShards[slot] = null;
      }),
    );
    await this.endVirtualStep();
  }

  /** Full parameters by name: an all-gather per unit over the shard group, so every rank must call it. */
  async snapshot(): Promise<Record<string, Float32Array>> {
    const out: Record<string, Float32Array> = {};
    for (let u = 0; u < this.units.length; u++) {
      const unit = this.units[u]!;
      const input = tf.tidy(() =>
        tf.concat(unit.params.map((_, j) => this.shards[this.slot(u, j)]!)),
      );
      const all = await this.dist.allGather(input, { group: this.mesh.shard });
      input.dispose();
      const params = this.unpack(u, all, unit.layouts);
      all.dispose();
      for (let j = 0; j < params.length; j++)
        out[this.model.paramNames[unit.params[j]!]!] = (await params[j]!.data()) as Float32Array;
      tf.dispose(params);
    }
    return out;
  }
}

function prefetchCount(name: string, value: number | undefined): number {
  const n = value ?? 1;
  if (!Number.isInteger(n) || n < 0)
    throw new Error(
      `fullyShard: ${name} is how many units ahead to all-gather (0 = off), not ${value}`,
    );
  return n;
}

/**
 * FSDP2's `fully_shard` for the playground: shards every parameter on dim 0 across the mesh's shard
 * dimension, one unit per layer, after syncing every rank to rank 0's parameters.
 * @param model The model; every rank passes the same architecture.
 * @param opts `optimizer`, and optionally `reshardAfterForward` (true, false or a group size), `mesh`
 *   (from `initDeviceMesh`; 2-D means HSDP), and `forwardPrefetch` / `backwardPrefetch` (units ahead, default 1, 0 off).
 * @returns A trainer with `backward`, `step`, `trainStep`, `noSync` and `snapshot` like DDP's.
 * @example const fsdp = await fullyShard(model, { optimizer: new Adam({ lr: 0.01 }), reshardAfterForward: true });
 */
export async function fullyShard(
  model: TrainableModel,
  opts: FullyShardOptions,
): Promise<FullyShardedDataParallel> {
  const fsdp = new FullyShardedDataParallel(model, opts);
  await fsdp.init();
  return fsdp;
}
