/** Every data-parallel configuration the equivalence tests cover, as rank-program expressions. */
export const TRAINER_FACTORIES: Record<string, string> = {
  ddp: `(m, o) => ranks.DDP(m, o)`,
  'ddp-bucket-view': `(m, o) => ranks.DDP(m, { ...o, gradientAsBucketView: true })`,
  zero1: `(m, o) => ranks.ZeRO(m, { ...o, stage: 1 })`,
  'zero1-torch': `(m, o) => ranks.ZeroRedundancyOptimizer(m, o)`,
  zero2: `(m, o) => ranks.ZeRO(m, { ...o, stage: 2 })`,
  zero3: `(m, o) => ranks.ZeRO(m, { ...o, stage: 3 })`,
  'fsdp-FULL_SHARD': `(m, o) => ranks.FSDP(m, { ...o, shardingStrategy: 'FULL_SHARD' })`,
  'fsdp-SHARD_GRAD_OP': `(m, o) => ranks.FSDP(m, { ...o, shardingStrategy: 'SHARD_GRAD_OP' })`,
  'fsdp-NO_SHARD': `(m, o) => ranks.FSDP(m, { ...o, shardingStrategy: 'NO_SHARD' })`,
  'fully-shard': `(m, o) => ranks.fullyShard(m, o)`,
  'fully-shard-keep': `(m, o) => ranks.fullyShard(m, { ...o, reshardAfterForward: false })`,
  'fully-shard-2': `(m, o) => ranks.fullyShard(m, { ...o, reshardAfterForward: dist.worldSize === 4 ? 2 : true })`,
  hsdp: `(m, o) => ranks.fullyShard(m, { ...o, mesh: dist.worldSize === 4 ? ranks.initDeviceMesh([2, 2], { meshDimNames: ['replicate', 'shard'] }) : undefined })`,
};

/** Rank-program source of an object literal mapping names to trainer factories. */
export function factoriesSource(names: readonly string[] = Object.keys(TRAINER_FACTORIES)): string {
  return `{ ${names.map((n) => `${JSON.stringify(n)}: ${TRAINER_FACTORIES[n]}`).join(', ')} }`;
}

/** Tiny bucket caps so the 67-parameter reference MLP still splits into several buckets. */
export const SMALL_BUCKETS = `{ firstBucketCapMB: 0.0001, bucketCapMB: 0.0002 }`;
