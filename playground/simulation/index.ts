/** The cluster model: cited presets, NCCL-like collective times, the roofline, and the one per-rank virtual clock (ProgramClock). */
export * from './presets.ts';
export * from './cluster-shape.ts';
export * from './cluster-options.ts';
export * from './collective-model.ts';
export * from './all-to-all-model.ts';
export * from './roofline.ts';
export * from './group-collective.ts';
export * from './program-clock.ts';
export * from './tfjs-kernel-cost.ts';
export * from './charged-model.ts';
export * from './step-report.ts';
export {
  NCCL_VERSION,
  NCCL_TUNING_SOURCE,
  RING_NET_SIMPLE_HOP_HISTORY_US,
  HOP_LATENCY_US,
  type Protocol,
} from './nccl-constants.ts';
