import { DDP, type DDPOptions, type DistributedDataParallel } from './ddp.ts';
import type { DataParallelOptions } from './data-parallel-base.ts';
import type { DeviceMesh } from './device-mesh.ts';
import { fullyShard, type FullyShardedDataParallel } from './fully-shard.ts';
import type { TrainableModel } from './sequential.ts';

/** FSDP1's sharding strategies (`torch.distributed.fsdp.ShardingStrategy`). */
export type ShardingStrategy = 'FULL_SHARD' | 'SHARD_GRAD_OP' | 'NO_SHARD' | 'HYBRID_SHARD';

export interface FSDPOptions extends DataParallelOptions {
  /** Default 'FULL_SHARD'. */
  shardingStrategy?: ShardingStrategy;
  /** HYBRID_SHARD only: a 2-D [replicate, shard] mesh (FSDP1 takes `device_mesh` for it too). */
  deviceMesh?: DeviceMesh;
  /**
   * FSDP1's `backward_prefetch`: 'BACKWARD_PRE' (its default) issues the next unit's all-gather before
   * this unit's gradient computation; null issues it when the unit is reached, behind this unit's
   * reduce-scatter. ('BACKWARD_POST', between the two, is not modelled.)
   */
  backwardPrefetch?: 'BACKWARD_PRE' | null;
  /** NO_SHARD only: DDP's bucket cap. */
  bucketCapMB?: number;
  firstBucketCapMB?: number;
}

/** The ZeRO stage each FSDP1 strategy corresponds to in memory (HYBRID_SHARD: 3 within a shard group). */
export const SHARDING_STRATEGY_STAGE: Record<ShardingStrategy, 0 | 2 | 3> = {
  FULL_SHARD: 3,
  SHARD_GRAD_OP: 2,
  NO_SHARD: 0,
  HYBRID_SHARD: 3,
};

/**
 * FSDP1's names over FSDP2's `fullyShard`, as PyTorch's migration guide maps them: FULL_SHARD is
 * `reshardAfterForward: true`, SHARD_GRAD_OP is `reshardAfterForward: false`, HYBRID_SHARD is a 2-D mesh,
 * and NO_SHARD (which FSDP2 drops) is DDP. One unit per layer stands for `auto_wrap_policy` wrapping each layer.
 * @param model The model; every rank passes the same architecture.
 * @param opts `optimizer`, `shardingStrategy` and, for HYBRID_SHARD, `deviceMesh`.
 * @returns The `fullyShard` trainer, or a DDP trainer for NO_SHARD.
 * @example const fsdp = await FSDP(model, { shardingStrategy: 'FULL_SHARD', optimizer: new Adam({ lr: 0.01 }) });
 */
export async function FSDP(
  model: TrainableModel,
  opts: FSDPOptions,
): Promise<FullyShardedDataParallel | DistributedDataParallel> {
  const strategy = opts.shardingStrategy ?? 'FULL_SHARD';
  if (strategy === 'NO_SHARD') return DDP(model, opts as DDPOptions);
  if (strategy === 'HYBRID_SHARD' && opts.deviceMesh?.shape.length !== 2)
    throw new Error(
      "FSDP: HYBRID_SHARD needs deviceMesh, a 2-D mesh from initDeviceMesh([replicas, shardSize], { meshDimNames: ['replicate', 'shard'] })",
    );
  return fullyShard(model, {
    ...opts,
    reshardAfterForward: strategy !== 'SHARD_GRAD_OP',
    backwardPrefetch: opts.backwardPrefetch === null ? 0 : 1,
    mesh: strategy === 'HYBRID_SHARD' ? opts.deviceMesh : undefined,
  });
}
