import { DDP, type DDPOptions, type DistributedDataParallel } from './ddp.ts';
import type { DataParallelOptions } from './dataParallelBase.ts';
import type { TrainableModel } from './sequential.ts';
import { ZeRO, type ZeroRedundancy } from './zero.ts';

/** PyTorch FSDP's sharding strategies. */
export type ShardingStrategy = 'FULL_SHARD' | 'SHARD_GRAD_OP' | 'NO_SHARD';

export interface FSDPOptions extends DataParallelOptions {
  /** Default 'FULL_SHARD'. */
  shardingStrategy?: ShardingStrategy;
  bucketCapMB?: number;
  firstBucketCapMB?: number;
}

/** Which ZeRO stage (or DDP) each FSDP strategy behaves as. */
export const SHARDING_STRATEGY_STAGE: Record<ShardingStrategy, 0 | 2 | 3> = { FULL_SHARD: 3, SHARD_GRAD_OP: 2, NO_SHARD: 0 };

/**
 * Fully Sharded Data Parallel with one FSDP unit per layer: FULL_SHARD behaves as ZeRO-3,
 * SHARD_GRAD_OP as ZeRO-2 and NO_SHARD as DDP.
 * @example const fsdp = await FSDP(model, { shardingStrategy: 'FULL_SHARD', optimizer: new Adam({ lr: 0.01 }) });
 */
export async function FSDP(model: TrainableModel, opts: FSDPOptions): Promise<ZeroRedundancy | DistributedDataParallel> {
  const stage = SHARDING_STRATEGY_STAGE[opts.shardingStrategy ?? 'FULL_SHARD'];
  if (stage === 0) return DDP(model, opts as DDPOptions);
  return ZeRO(model, { ...opts, stage });
}
