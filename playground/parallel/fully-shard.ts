import * as tf from '@tensorflow/tfjs';
import type { ProcessGroupHandle } from '../collectives/dist-api.ts';
import { broadcastFromRankZero } from './broadcast-from-rank-zero.ts';
import { ChargedUnits, type ChargedPass } from './charged-job.ts';
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
   * true: free the unsharded parameters after forward and all-gather them again in backward. false: keep
   * them until backward is done (no backward all-gather, more memory). An int k: after forward keep them
   * sharded over groups of k ranks, so the backward all-gather runs within k ranks (k must divide the
   * shard group size; 1 means false). Unset: true for every unit but the root, which keeps its parameters
   * (backward needs them first), as PyTorch's `None`.
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
  /**
   * Layer indices per `fully_shard` call, like PyTorch's recipe of one call per transformer block and then
   * one on the root: each entry is one unit; the parameters of layers in no entry form the root unit.
   * Unset: every layer with parameters is its own unit (and the root holds none).
   */
  units?: readonly (readonly number[])[];
}

/** One `fully_shard` unit: its layers' parameters, all-gathered in one collective and reduce-scattered in one. */
export interface FullyShardUnit {
  /** Its first layer. */
  readonly layer: number;
  /** Every layer whose parameters it holds, ascending (the root's may be apart, e.g. embedding and head). */
  readonly layers: readonly number[];
  /** The root unit: the parameters no `units` entry claimed, as `fully_shard(model)` after the blocks. */
  readonly root: boolean;
  readonly reshardAfterForward: boolean | number;
  readonly params: readonly number[];
  readonly layouts: readonly Dim0Layout[];
  /** Layouts over the post-forward group when `reshardAfterForward` is an int. */
  readonly postLayouts: readonly Dim0Layout[] | null;
}

/**
 * FSDP2 (`torch.distributed.fsdp.fully_shard`) over a {@link Sequential}: one unit per layer with
 * parameters, or per entry of `units` plus a root unit for the rest, each parameter sharded on dim 0
 * across the shard group (uneven dim 0 padded with zero rows, as DTensor's `Shard(0)` does), all-gathered
 * per unit before its first layer's forward and again before its backward, with the next unit's
 * all-gathers issued before this unit computes (prefetch, `forwardPrefetch` and
 * `backwardPrefetch` units ahead), and gradients reduce-scattered per unit as soon
 * as the backward of its last layer ends (then all-reduced across replicas under HSDP).
 */
export class FullyShardedDataParallel extends DataParallelBase {
  /** The setting of every unit but the root (the root's is on its {@link FullyShardUnit}). */
  readonly reshardAfterForward: boolean | number;
  readonly forwardPrefetch: number;
  readonly backwardPrefetch: number;
  readonly mesh: MeshGroups;
  readonly units: readonly FullyShardUnit[];
  private readonly unitOfLayer: (number | null)[];
  /** Unit indices in the order backward reaches them (by last layer, descending); forward's is 0, 1, …. */
  private readonly backwardOrder: readonly number[];
  private readonly postForwardGroup: ProcessGroupHandle | null;
  /** This rank's padded dim-0 shard of every parameter (flat), and its optimizer state. */
  private readonly shards: tf.Tensor[];
  private readonly gradShards: (tf.Tensor | null)[];
  private readonly state: tf.Tensor[][];
  /** All-gathers in flight or done, by unit, for the current phase. */
  private readonly gathers = new Map<number, PendingCollective>();
  /** Unsharded parameters of the units in use in the current phase (a unit's layers may be apart). */
  private readonly unsharded = new Map<number, tf.Tensor[]>();
  /** Unsharded parameters kept from forward to backward (reshardAfterForward false), or post-forward shards (int). */
  private readonly kept = new Map<number, tf.Tensor[]>();
  /** The charged model's FSDP units, under a named chargeAs (1-D mesh). */
  private chargedUnits: ChargedUnits | null = null;
  private chargedPhase: 'forward' | 'backward' = 'forward';

  constructor(model: TrainableModel, opts: FullyShardOptions) {
    super(toSequential(model), resolveDist(opts.dist), opts);
    this.forwardPrefetch = prefetchCount('forwardPrefetch', opts.forwardPrefetch);
    this.backwardPrefetch = prefetchCount('backwardPrefetch', opts.backwardPrefetch);
    this.mesh = meshGroups(this.dist, opts.mesh);
    const s = this.mesh.shardSize;
    const explicit = opts.reshardAfterForward;
    if (
      typeof explicit === 'number' &&
      (!Number.isInteger(explicit) || explicit < 1 || explicit > s || s % explicit !== 0)
    ) {
      throw new Error(
        `fullyShard: reshardAfterForward as a number is the group size to reshard to after forward; it must divide the shard group size ${s}, not ${explicit}`,
      );
    }
    // As in PyTorch, resharding to one rank is keeping the whole parameter, and to the whole group is true.
    const normalise = (r: boolean | number) => (r === 1 ? false : r === s ? true : r);
    this.reshardAfterForward = normalise(explicit ?? true);
    const k = typeof this.reshardAfterForward === 'number' ? this.reshardAfterForward : 0;
    if (k) {
      const start = Math.floor(this.mesh.shardRank / k) * k;
      this.postForwardGroup = this.dist.newGroup(this.mesh.shardMembers.slice(start, start + k));
    } else this.postForwardGroup = null;
    const shapes = this.model.params.map((p) => p.shape);
    const units = unitLayers(this.model.layerParams, opts.units).map(({ layers, root }) => {
      const params = layers.flatMap((l) => this.model.layerParams[l]!);
      const reshard = normalise(explicit ?? !root);
      const post = typeof reshard === 'number' ? reshard : 0;
      return {
        layer: layers[0]!,
        layers,
        root,
        reshardAfterForward: reshard,
        params,
        layouts: params.map((i) => dim0Layout(shapes[i]!, s)),
        postLayouts: post ? params.map((i) => dim0Layout(shapes[i]!, post)) : null,
      };
    });
    this.units = units;
    this.unitOfLayer = this.model.layerParams.map(() => null);
    units.forEach((u, i) => u.layers.forEach((l) => (this.unitOfLayer[l] = i)));
    this.backwardOrder = units.map((_, i) => i).sort((a, b) => last(units[b]!) - last(units[a]!));
    this.shards = [];
    this.gradShards = this.model.params.map(() => null);
    this.state = this.units.flatMap((u) =>
      u.layouts.map((l) => initialState(this.optimizer, [l.chunk])),
    );
    this.ledger.hold('optimizerState', ...this.state.flat());
  }

  /** Start from rank 0's parameters, then keep only this rank's dim-0 shard of each and free the full ones. */
  async init(): Promise<void> {
    const sync = () =>
      broadcastFromRankZero(this.dist, [...this.model.params, ...this.model.buffers]);
    const sim = this.context.sim;
    // fully_shard does not broadcast (sharded init is deterministic): under a named charged model
    // this start-up sync is the toy's own and costs no virtual time.
    await (sim && this.chargeAs?.model !== undefined && this.supportsChargedJob()
      ? sim.unchargedRegion(sync)
      : sync());
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

  /** How the timeline names unit `u`: its index and layers. */
  private label(u: number): string {
    const unit = this.units[u]!;
    const layers = unit.layers.length === 1 ? 'layer' : 'layers';
    return `unit ${u} (${unit.root ? 'root, ' : ''}${layers} ${unit.layers.join(', ')})`;
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
      `${phase} ${this.label(u)}`,
      input.size * 4,
      this.toyCall(() => this.dist.allGather(input, { async: true, group })),
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
    const order = phase === 'forward' ? this.units.map((_, i) => i) : this.backwardOrder;
    const at = order.indexOf(u);
    return order.slice(at + 1, at + 1 + ahead);
  }

  /** Whether unit `u` must be all-gathered for `phase` (in backward, not when its forward kept it whole). */
  private needsGather(u: number, phase: 'forward' | 'backward'): boolean {
    return phase === 'forward' || this.units[u]!.reshardAfterForward !== false;
  }

  private async paramsFor(layer: number, phase: 'forward' | 'backward'): Promise<tf.Tensor[]> {
    const u = this.unitOfLayer[layer];
    if (u === null || u === undefined) return [];
    const unit = this.units[u]!;
    let full = this.unsharded.get(u);
    if (!full) {
      if (!this.needsGather(u, phase)) {
        full = this.kept.get(u)!;
        this.kept.delete(u);
      }
      const pending = full ? null : this.gather(u, phase);
      // Prefetch: issue the next units' all-gathers before computing this one, so they arrive during the compute.
      for (const next of this.prefetchTargets(u, phase))
        if (!this.unsharded.has(next) && this.needsGather(next, phase)) this.gather(next, phase);
      if (pending) {
        const all = await pending.done;
        this.gathers.delete(u);
        full = this.unpack(
          u,
          all,
          phase === 'backward' && unit.postLayouts ? unit.postLayouts : unit.layouts,
        );
        // FSDP2 copies out of the all-gather buffer into the parameters; count them as one allocation.
        this.ledger.free(all);
        this.ledger.hold('gathered', ...full);
      }
      this.unsharded.set(u, full!);
    }
    const own = full!;
    return this.model.layerParams[layer]!.map((k) => own[unit.params.indexOf(k)]!);
  }

  /** After the unit's last layer in `phase` (forward: its highest; backward: its lowest), reshard it. */
  private releaseParams(layer: number, phase: 'forward' | 'backward'): void {
    const u = this.unitOfLayer[layer];
    if (u === null || u === undefined) return;
    const unit = this.units[u]!;
    if (layer !== (phase === 'forward' ? last(unit) : unit.layer)) return;
    const full = this.unsharded.get(u)!;
    this.unsharded.delete(u);
    if (phase === 'forward' && unit.reshardAfterForward === false) {
      this.kept.set(u, full);
      return;
    }
    if (phase === 'forward' && unit.postLayouts) {
      // Reshard to the smaller group: keep this rank's piece over k ranks, free the rest.
      const rank = this.mesh.shardRank % unit.postLayouts[0]!.size;
      const pieces = full.map((p, j) => shardOf(unit.postLayouts![j]!, p, rank));
      this.ledger.hold('gathered', ...pieces);
      this.kept.set(u, pieces);
    } else if (phase === 'backward' && unit.postLayouts) {
      const pieces = this.kept.get(u);
      if (pieces) this.ledger.free(...pieces);
    }
    if (phase === 'backward') this.kept.delete(u);
    this.ledger.free(...full);
  }

  protected override supportsChargedJob(): boolean {
    return !this.mesh.replicate;
  }

  protected override startChargedPass(pass: ChargedPass): void {
    this.chargedUnits ??= new ChargedUnits(pass, this.context, this.mesh.shard, {
      forward: this.forwardPrefetch,
      backward: this.backwardPrefetch,
    });
    this.chargedPhase = 'forward';
    pass.sim.setChargedSizes(this.chargedUnits.describe());
  }

  protected override chargedLayer(kind: 'forward' | 'backward', layer: number): void {
    const units = this.chargedUnits!;
    if (kind === 'forward') return units.forward(layer);
    if (this.chargedPhase === 'forward') units.startBackward();
    this.chargedPhase = 'backward';
    units.backward(layer, this.syncing);
  }

  /** Under a named charged model the toy's collectives only carry its arithmetic: no virtual time. */
  private toyCall<T>(issue: () => T): T {
    const sim = this.context.sim;
    return sim && this.chargedUnits && sim.chargedModel ? sim.ghost(issue) : issue();
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
      releaseParams: (layer) => this.releaseParams(layer, phase),
      onGrads: (layer, grads) => {
        const indices = this.accumulate(layer, grads);
        const u = this.unitOfLayer[layer];
        // A unit's gradients are complete once backward has passed its lowest layer.
        if (
          syncing &&
          u !== null &&
          u !== undefined &&
          indices.length &&
          layer === this.units[u]!.layer
        )
          launched[u] = this.launchReduceScatter(u);
      },
    };
    const { meanLoss, divisor } = await this.runPass(x, target, loss, hooks);
    if (this.chargedUnits && this.context.sim?.chargedModel) this.chargedUnits.sync();
    if (!syncing) return meanLoss;
    const total = await divisor!;
    for (let u = 0; u < this.units.length; u++) {
      let shard = await launched[u]!.done;
      if (this.mesh.replicate) {
        // HSDP: the reduce-scatter summed within the row; the all-reduce sums the rows.
        const summed = await this.track(
          'allReduce',
          `replicas ${this.label(u)}`,
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
      this.label(u),
      input.size * 4,
      this.toyCall(() =>
        this.dist.reduceScatter(input, { op: 'sum', async: true, group: this.mesh.shard }),
      ),
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
    const byIndex: Float32Array[] = [];
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
        byIndex[unit.params[j]!] = (await params[j]!.data()) as Float32Array;
      tf.dispose(params);
    }
    // In registration order, as the model's own snapshot, whatever order the units hold them in.
    return Object.fromEntries(this.model.paramNames.map((name, i) => [name, byIndex[i]!]));
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
 * dimension, one unit per layer (or per entry of `units`, plus a root unit for the rest), after syncing
 * every rank to rank 0's parameters.
 * @param model The model; every rank passes the same architecture.
 * @param opts `optimizer`, and optionally `reshardAfterForward` (true, false or a group size), `mesh`
 *   (from `initDeviceMesh`; 2-D means HSDP), `units` (layer indices per unit, e.g. one per block), and
 *   `forwardPrefetch` / `backwardPrefetch` (units ahead, default 1, 0 off).
 * @returns A trainer with `backward`, `step`, `trainStep`, `noSync` and `snapshot` like DDP's.
 * @example const fsdp = await fullyShard(model, { optimizer: new Adam({ lr: 0.01 }), reshardAfterForward: true });
 * @example const fsdp = await fullyShard([embed, block0, block1, head], { optimizer, units: [[1], [2]] }); // blocks, then root
 */
export async function fullyShard(
  model: TrainableModel,
  opts: FullyShardOptions,
): Promise<FullyShardedDataParallel> {
  const fsdp = new FullyShardedDataParallel(model, opts);
  await fsdp.init();
  return fsdp;
}

/** Last layer of a unit: where its forward ends. */
function last(unit: FullyShardUnit): number {
  return unit.layers[unit.layers.length - 1]!;
}

/**
 * The layers of each unit, ordered by first layer: `units` as given (checked), then the root of every
 * layer with parameters that no entry claimed; or, without `units`, one unit per layer with parameters.
 */
function unitLayers(
  layerParams: readonly (readonly number[])[],
  units: readonly (readonly number[])[] | undefined,
): { layers: number[]; root: boolean }[] {
  const withParams = layerParams.flatMap((ps, l) => (ps.length ? [l] : []));
  if (!units) return withParams.map((l) => ({ layers: [l], root: false }));
  const claimed = new Set<number>();
  const out = units.map((entry, i) => {
    for (const l of entry) {
      if (!Number.isInteger(l) || l < 0 || l >= layerParams.length)
        throw new Error(
          `fullyShard: units[${i}] names layer ${l}, but the model has layers 0 to ${layerParams.length - 1}`,
        );
      if (claimed.has(l))
        throw new Error(`fullyShard: layer ${l} is in two units; each layer belongs to one`);
      claimed.add(l);
    }
    const layers = [...entry].filter((l) => layerParams[l]!.length).sort((a, b) => a - b);
    if (!layers.length) throw new Error(`fullyShard: units[${i}] holds no parameters`);
    return { layers, root: false };
  });
  const rest = withParams.filter((l) => !claimed.has(l));
  if (rest.length) out.push({ layers: rest, root: true });
  return out.sort((a, b) => a.layers[0]! - b.layers[0]!);
}
