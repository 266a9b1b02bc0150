/**
 * Data-parallel training for the playground, merged into the 'ranks' module next to `dist`:
 * models and layers, a sampler, DDP, ZeRO-1/2/3, ZeroRedundancyOptimizer, FSDP2's fullyShard (and FSDP1's names over it),
 * sync-BatchNorm, the memory ledger and byte counters.
 */
export { Lcg } from './lcg.ts';
export { Linear, Activation, BatchNorm1d, SyncBatchNorm, isCollectiveLayer } from './layers.ts';
export type {
  Layer,
  CollectiveLayer,
  TensorSpec,
  ActivationName,
  BatchNormOptions,
  SavedState,
} from './layers.ts';
export { Sequential, mlp, fromLayersModel, copyToLayersModel, toSequential } from './sequential.ts';
export type { MlpOptions, FunctionModel, TrainableModel } from './sequential.ts';
export { mseLoss, crossEntropyLoss } from './losses.ts';
export type { RowLoss } from './losses.ts';
export { SGD, Adam, initialState } from './optimizers.ts';
export type { ElementwiseOptimizer } from './optimizers.ts';
export { SingleDeviceTrainer } from './single-device.ts';
export { REFERENCE_MLP, referenceModel, referenceData } from './reference-mlp.ts';
export { DistributedSampler, seededShuffle, unequalShards } from './distributed-sampler.ts';
export type { DistributedSamplerOptions } from './distributed-sampler.ts';
export {
  planBuckets,
  assignBuckets,
  bucketSizeLimits,
  constructionBuckets,
  rebuiltBuckets,
  DEFAULT_BUCKET_CAP_MB,
  DEFAULT_FIRST_BUCKET_MB,
} from './gradient-buckets.ts';
export type { GradientBucket, BucketOptions } from './gradient-buckets.ts';
export { MemoryLedger, MEMORY_CATEGORIES } from './memory-ledger.ts';
export { commBytes, commBytesSince, totalBytes } from './communication-counters.ts';
export type { CommBytes } from './communication-counters.ts';
export type { MemoryCategory, MemoryBreakdown, MemorySnapshot } from './memory-ledger.ts';
export type { TimelineSpan } from './layerwise-backward.ts';
export type { DataParallelTrainer, DataParallelOptions } from './data-parallel-base.ts';
export { DDP, DistributedDataParallel } from './ddp.ts';
export type { DDPOptions } from './ddp.ts';
export { ZeRO, ZeroRedundancy } from './zero.ts';
export {
  ZeroRedundancyOptimizer,
  ZeroRedundancyOptimizerDDP,
  partitionParameters,
} from './zero-redundancy-optimizer.ts';
export type { ZeroOptions, ZeroStage } from './zero.ts';
export { fullyShard, FullyShardedDataParallel } from './fully-shard.ts';
export type { FullyShardOptions } from './fully-shard.ts';
export { initDeviceMesh } from './device-mesh.ts';
export type { DeviceMesh } from './device-mesh.ts';
export { FSDP, SHARDING_STRATEGY_STAGE } from './fsdp.ts';
export type { FSDPOptions, ShardingStrategy } from './fsdp.ts';
