import * as tf from '@tensorflow/tfjs';
import type { Dist, Work } from '../collectives/dist-api.ts';
import { afterPending, type PendingCollective } from './data-parallel-base.ts';
import { flatGroup, flattenPadded, ownChunk, unflatten, type FlatGroup } from './flat-shards.ts';
import { planBuckets, type BucketOptions } from './gradient-buckets.ts';
import type { MemoryLedger } from './memory-ledger.ts';
import type { Sequential } from './sequential.ts';
import type { TimelineSpan } from './layerwise-backward.ts';

/** What the parameter handling needs from the trainer that owns it. */
export interface ZeroContext {
  readonly model: Sequential;
  readonly dist: Dist;
  readonly ledger: MemoryLedger;
  track(
    kind: TimelineSpan['kind'],
    label: string,
    bytes: number,
    work: Work<tf.Tensor>,
  ): PendingCollective;
}

/**
 * Where ZeRO keeps parameters, chosen once at construction: replicated on every rank (stages 1 and 2)
 * or sharded with each layer all-gathered when used (stage 3). The flat groups are the unit of both
 * the gradient reduce-scatter and the parameter update.
 */
export interface ZeroParameters {
  readonly groups: readonly FlatGroup[];
  /** After the rank-0 broadcast: register what this rank keeps. */
  init(): void;
  /** Full parameters of one layer for its forward or backward. */
  paramsFor(layer: number, phase: 'forward' | 'backward'): Promise<tf.Tensor[]>;
  /** The layer is done with what `paramsFor` returned. */
  release(layer: number, params: tf.Tensor[]): void;
  /** This rank's current slice of group `i`, for the optimizer (the caller owns and frees it). */
  ownSlice(i: number): tf.Tensor;
  /** Take the updated slice of group `i`; returns the collective that spreads it, if any. */
  updated(i: number, slice: tf.Tensor): PendingCollective | null;
  /** Apply what `updated`'s collective returned. */
  finish(i: number, gathered: tf.Tensor): void;
  /** Full parameters by name (a collective under sharding). */
  snapshot(): Promise<Record<string, Float32Array>>;
}

const shapesOf = (model: Sequential) => model.params.map((p) => p.shape);

/** Stages 1 and 2: every rank holds the full parameters; updated slices are all-gathered into them. */
export function replicatedParameters(ctx: ZeroContext, buckets: BucketOptions): ZeroParameters {
  const { model, dist, ledger } = ctx;
  const sizes = model.params.map((p) => p.size);
  const shapes = shapesOf(model);
  const groups = planBuckets(
    sizes.map((n) => n * 4),
    buckets,
  ).map((b) =>
    flatGroup(
      b.params,
      b.params.map((k) => sizes[k]!),
      dist.worldSize,
    ),
  );
  return {
    groups,
    init: () => ledger.hold('params', ...model.params),
    paramsFor: async (layer) => model.layerParams[layer]!.map((k) => model.params[k]!),
    release: () => {},
    ownSlice: (i) =>
      tf.tidy(() =>
        ownChunk(
          groups[i]!,
          flattenPadded(
            groups[i]!,
            groups[i]!.params.map((k) => model.params[k]!),
          ),
          dist.rank,
        ),
      ),
    updated(i, slice) {
      ledger.hold('gathered', slice);
      const pending = ctx.track(
        'allGather',
        `params ${i}`,
        groups[i]!.chunk * 4,
        dist.allGather(slice, { async: true }),
      );
      return afterPending(pending, (t) => (ledger.free(slice), t));
    },
    finish(i, gathered) {
      const group = groups[i]!;
      const values = unflatten(
        group,
        gathered,
        group.params.map((k) => shapes[k]!),
      );
      gathered.dispose();
      group.params.forEach((k, j) => model.params[k]!.assign(values[j]!));
      tf.dispose(values);
    },
    snapshot: () => model.snapshot(),
  };
}

/** Stage 3: each rank keeps one flat shard per layer (the FSDP unit) and all-gathers a layer when it runs. */
export function shardedParameters(ctx: ZeroContext): ZeroParameters {
  const { model, dist, ledger } = ctx;
  const sizes = model.params.map((p) => p.size);
  const shapes = shapesOf(model);
  const groups = model.layerParams
    .filter((ps) => ps.length)
    .map((ps) =>
      flatGroup(
        ps,
        ps.map((k) => sizes[k]!),
        dist.worldSize,
      ),
    );
  let g = 0;
  const layerGroup = model.layerParams.map((ps) => (ps.length ? g++ : null));
  const shards: tf.Tensor[] = [];
  const gatherAll = async (i: number, gathered: tf.Tensor) => {
    const values = unflatten(
      groups[i]!,
      gathered,
      groups[i]!.params.map((k) => shapes[k]!),
    );
    gathered.dispose();
    return values;
  };
  return {
    groups,
    init() {
      groups.forEach((group) => {
        const flat = flattenPadded(
          group,
          group.params.map((k) => model.params[k]!),
        );
        shards.push(ownChunk(group, flat, dist.rank));
        flat.dispose();
      });
      ledger.hold('params', ...shards);
      for (const p of model.params) p.dispose();
    },
    async paramsFor(layer, phase) {
      const i = layerGroup[layer];
      if (i === null || i === undefined) return [];
      const pending = ctx.track(
        'allGather',
        `${phase} layer ${layer}`,
        groups[i]!.chunk * 4,
        dist.allGather(shards[i]!, { async: true }),
      );
      const params = await gatherAll(i, await pending.done);
      ledger.hold('gathered', ...params);
      return params;
    },
    release: (layer, params) => {
      if (layerGroup[layer] !== null) ledger.free(...params);
    },
    ownSlice: (i) => shards[i]!.clone(),
    updated(i, slice) {
      ledger.free(shards[i]!);
      ledger.hold('params', slice);
      shards[i] = slice;
      return null;
    },
    finish: () => {},
    async snapshot() {
      const out: Record<string, Float32Array> = {};
      for (let i = 0; i < groups.length; i++) {
        const values = await gatherAll(i, await dist.allGather(shards[i]!));
        for (let j = 0; j < values.length; j++)
          out[model.paramNames[groups[i]!.params[j]!]!] = (await values[j]!.data()) as Float32Array;
        tf.dispose(values);
      }
      return out;
    },
  };
}
