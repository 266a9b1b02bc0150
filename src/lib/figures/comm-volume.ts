/**
 * Communication volume per rank and per training step for each strategy, following the ZeRO
 * paper's section 7 (Rajbhandari et al., 2020) and the FSDP paper (Zhao et al., 2023).
 * Volumes are in parameter elements (Ψ = parameter count); multiply by bytes per element.
 */
import type { Strategy } from './zero-memory';

export type Phase = 'forward' | 'backward' | 'after step';
export type CollectiveKind = 'all-reduce' | 'reduce-scatter' | 'all-gather' | 'broadcast';

/**
 * How ZeRO-1/2 is implemented decides its traffic. The algorithm needs only each rank's own slice of
 * the reduced gradients (2Ψ); implementations that all-reduce the whole gradient first pay 3Ψ.
 */
export type ZeroImplementation =
  'reduce-scatter' | 'zero-redundancy-optimizer' | 'deepspeed-bucket-all-reduce';

export interface ZeroImplementationFacts {
  label: string;
  /** Who implements ZeRO-1/2 this way. */
  usedBy: string;
  source: string;
}

export const ZERO_IMPLEMENTATIONS: Record<ZeroImplementation, ZeroImplementationFacts> = {
  'reduce-scatter': {
    label: 'reduce-scatter the gradients, all-gather the updated parameters',
    usedBy:
      'the ZeRO paper; FSDP SHARD_GRAD_OP / fully_shard(reshard_after_forward=False); DeepSpeed stage 1/2 with "use_multi_rank_bucket_allreduce": false (one reduce per owning rank)',
    source:
      'Rajbhandari et al. 2020, section 7.2.1; DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py, average_tensor → allreduce_no_retain(rank=dst)',
  },
  'zero-redundancy-optimizer': {
    label: "DDP's all-reduce, then each rank broadcasts its updated shard",
    usedBy: "PyTorch's torch.distributed.optim.ZeroRedundancyOptimizer under DDP",
    source:
      'pytorch/pytorch torch/distributed/optim/zero_redundancy_optimizer.py, ZeroRedundancyOptimizer.step → _sync_params → _broadcast_params_from_rank',
  },
  'deepspeed-bucket-all-reduce': {
    label:
      'all-reduce each gradient bucket and keep the own slice, then all-gather the updated parameters',
    usedBy:
      'DeepSpeed stage 1 and 2 by default since v0.12.4 ("use_multi_rank_bucket_allreduce": true, PR 4695); DeepSpeed v0.1 (Feb 2020) did the same for stage 1 until the v0.2 rewrite added reduce-scatter (PR 217)',
    source:
      'DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py, average_tensor → allreduce_and_scatter → allreduce_bucket (dist.all_reduce); deepspeed/runtime/zero/config.py use_multi_rank_bucket_allreduce',
  },
};
export const ZERO_IMPLEMENTATION_IDS = Object.keys(ZERO_IMPLEMENTATIONS) as ZeroImplementation[];

export interface CommStep {
  phase: Phase;
  collective: CollectiveKind;
  what: string;
  /** Volume in units of Ψ for large world sizes (ring algorithm, (n−1)/n → 1). */
  psi: number;
}

/**
 * The collectives each strategy runs in one step, in order. `implementation` matters for ZeRO-1/2
 * only; DDP and ZeRO-3 are the same everywhere.
 */
export function commSteps(
  strategy: Strategy,
  implementation: ZeroImplementation = 'reduce-scatter',
): CommStep[] {
  if ((strategy === 'zero1' || strategy === 'zero2') && implementation !== 'reduce-scatter') {
    if (implementation === 'zero-redundancy-optimizer') {
      if (strategy === 'zero2')
        throw new RangeError(
          'ZeroRedundancyOptimizer shards optimizer state only (ZeRO-1); PyTorch shards gradients with FSDP',
        );
      return [
        {
          phase: 'backward',
          collective: 'all-reduce',
          what: 'gradients, by DDP (every rank gets all of them)',
          psi: 2,
        },
        {
          phase: 'after step',
          collective: 'broadcast',
          what: "each rank's updated parameter shard, from its owner",
          psi: 1,
        },
      ];
    }
    return [
      {
        phase: 'backward',
        collective: 'all-reduce',
        what: 'gradient buckets (each rank keeps its own slices)',
        psi: 2,
      },
      { phase: 'after step', collective: 'all-gather', what: 'updated parameters', psi: 1 },
    ];
  }
  switch (strategy) {
    case 'ddp':
      return [
        {
          phase: 'backward',
          collective: 'all-reduce',
          what: 'gradients (= reduce-scatter Ψ + all-gather Ψ)',
          psi: 2,
        },
      ];
    case 'zero1':
    case 'zero2':
      // Each rank needs only the reduced gradients of the shard it updates, then shares its updated parameters.
      return [
        { phase: 'backward', collective: 'reduce-scatter', what: 'gradients', psi: 1 },
        { phase: 'after step', collective: 'all-gather', what: 'updated parameters', psi: 1 },
      ];
    case 'zero3':
      return [
        { phase: 'forward', collective: 'all-gather', what: 'parameters, layer by layer', psi: 1 },
        {
          phase: 'backward',
          collective: 'all-gather',
          what: 'parameters again (freed after forward)',
          psi: 1,
        },
        { phase: 'backward', collective: 'reduce-scatter', what: 'gradients', psi: 1 },
      ];
  }
}

/** Total per-rank volume in units of Ψ (large-n limit): DDP 2, ZeRO-1/2 2 (3 if all-reduced first), ZeRO-3 3. */
export function commVolumePsi(strategy: Strategy, implementation?: ZeroImplementation): number {
  return commSteps(strategy, implementation).reduce((sum, s) => sum + s.psi, 0);
}

export function commVolumeByPhase(
  strategy: Strategy,
  implementation?: ZeroImplementation,
): Record<Phase, number> {
  const out: Record<Phase, number> = { forward: 0, backward: 0, 'after step': 0 };
  for (const s of commSteps(strategy, implementation)) out[s.phase] += s.psi;
  return out;
}

/** Ratio of a strategy's volume to DDP's: ZeRO-3 / DDP = 1.5, not 3; ZeroRedundancyOptimizer 1.5 too. */
export function commRatioToDdp(strategy: Strategy, implementation?: ZeroImplementation): number {
  return commVolumePsi(strategy, implementation) / commVolumePsi('ddp');
}

/** The rows of chapter 5's traffic table: each strategy, and ZeRO-1/2 once per way of implementing it. */
export const COMM_TABLE_ROWS: readonly {
  strategy: Strategy;
  implementation?: ZeroImplementation;
}[] = [
  { strategy: 'ddp' },
  { strategy: 'zero1', implementation: 'reduce-scatter' },
  { strategy: 'zero1', implementation: 'zero-redundancy-optimizer' },
  { strategy: 'zero1', implementation: 'deepspeed-bucket-all-reduce' },
  { strategy: 'zero2', implementation: 'reduce-scatter' },
  { strategy: 'zero2', implementation: 'deepspeed-bucket-all-reduce' },
  { strategy: 'zero3' },
];

/**
 * Exact bytes one rank sends per step with ring collectives on n ranks: each reduce-scatter or
 * all-gather moves (n−1)/n of the tensor, an all-reduce twice that.
 */
export function commBytesPerRank(
  strategy: Strategy,
  params: number,
  bytesPerElement: number,
  n: number,
  implementation?: ZeroImplementation,
): number {
  if (n <= 1) return 0;
  // A ring broadcast of m bytes also has each rank but one forward m; n broadcasts of Ψ/n come to (n−1)/n·Ψ as well.
  return commVolumePsi(strategy, implementation) * ((n - 1) / n) * params * bytesPerElement;
}
