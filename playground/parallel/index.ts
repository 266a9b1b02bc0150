/**
 * Data-parallel training for the playground, merged into the 'ranks' module next to `dist`:
 * models and layers, a sampler, DDP, ZeRO-1/2/3, ZeroRedundancyOptimizer, FSDP2's fullyShard (and FSDP1's names over it),
 * sync-BatchNorm, the memory ledger and byte counters.
 */
export { Lcg } from './lcg.ts';
export { Linear, Activation, BatchNorm1d, SyncBatchNorm, isCollectiveLayer } from './layers.ts';
export type { Layer, CollectiveLayer, TensorSpec, ActivationName, BatchNormOptions, SavedState } from './layers.ts';
export { Sequential, mlp, fromLayersModel, copyToLayersModel, toSequential } from './sequential.ts';
export type { MlpOptions, FunctionModel, TrainableModel } from './sequential.ts';
export { mseLoss, crossEntropyLoss } from './losses.ts';
export type { RowLoss } from './losses.ts';
export { SGD, Adam, initialState } from './optimizers.ts';
export type { ElementwiseOptimizer } from './optimizers.ts';
export { SingleDeviceTrainer } from './singleDevice.ts';
export { REFERENCE_MLP, referenceModel, referenceData } from './referenceMlp.ts';
export { DistributedSampler, seededShuffle, unequalShards } from './distributedSampler.ts';
export type { DistributedSamplerOptions } from './distributedSampler.ts';
export { planBuckets, assignBuckets, bucketSizeLimits, constructionBuckets, rebuiltBuckets, DEFAULT_BUCKET_CAP_MB, DEFAULT_FIRST_BUCKET_MB } from './gradientBuckets.ts';
export type { GradientBucket, BucketOptions } from './gradientBuckets.ts';
export { MemoryLedger, MEMORY_CATEGORIES } from './memoryLedger.ts';
export { commBytes, commBytesSince, totalBytes } from './communicationCounters.ts';
export type { CommBytes } from './communicationCounters.ts';
export type { MemoryCategory, MemoryBreakdown, MemorySnapshot } from './memoryLedger.ts';
export type { TimelineSpan } from './layerwiseBackward.ts';
export type { DataParallelTrainer, DataParallelOptions } from './dataParallelBase.ts';
export { DDP, DistributedDataParallel } from './ddp.ts';
export type { DDPOptions } from './ddp.ts';
export { ZeRO, ZeroRedundancy } from './zero.ts';
export { ZeroRedundancyOptimizer, ZeroRedundancyOptimizerDDP, partitionParameters } from './zeroRedundancyOptimizer.ts';
export type { ZeroOptions, ZeroStage } from './zero.ts';
export { fullyShard, FullyShardedDataParallel } from './fullyShard.ts';
export type { FullyShardOptions } from './fullyShard.ts';
export { initDeviceMesh } from './deviceMesh.ts';
export type { DeviceMesh } from './deviceMesh.ts';
export { FSDP, SHARDING_STRATEGY_STAGE } from './fsdp.ts';
export type { FSDPOptions, ShardingStrategy } from './fsdp.ts';
