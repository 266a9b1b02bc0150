/**
 * Per-GPU memory of the model states (parameters, gradients, optimizer state) under data
 * parallelism and the three ZeRO stages. Activations and temporary buffers are not counted:
 * they depend on batch size and sequence length, not on the sharding strategy.
 */

export type Precision = 'fp32' | 'bf16-mixed';
export type Optimizer = 'sgd' | 'sgd-momentum' | 'adam';
export type Strategy = 'ddp' | 'zero1' | 'zero2' | 'zero3';
/**
 * 'paper': Rajbhandari et al. (2020): mixed-precision Adam keeps an fp32 master copy of the
 * weights, so K = 12 bytes of optimizer state per parameter (16 bytes in all).
 * 'chapter': the source chapter's 70B table, which leaves the master copy out (2 + 2 + 8).
 */
export type Accounting = 'paper' | 'chapter';
/** Where mixed-precision training keeps its bytes; the frameworks differ (see MIXED_PRECISION_LAYOUTS). */
export type MixedPrecisionLayout = 'half-weights' | 'fp32-weights';

export interface LayoutFacts {
  label: string;
  /** Who uses it, in a few words (select options, table headers). */
  short: string;
  frameworks: string;
  /** Bytes per parameter of the stored weights and gradients, and of the fp32 master copy (0: none). */
  params: number;
  grads: number;
  master: number;
  /**
   * ZeRO-2 as this layout's framework runs it. 'replicated-params': the paper's stage 2, whole parameters
   * in their stored dtype. 'fsdp-shard-grad-op': FSDP's SHARD_GRAD_OP, fp32 parameter shards plus a
   * param_dtype copy of the whole model held from forward to backward (computeCopy bytes per parameter).
   */
  zero2: 'replicated-params' | 'fsdp-shard-grad-op';
  computeCopy: number;
  /** The dtype the gradient reduction runs in unless configured otherwise. */
  reduction: string;
  source: string;
}

/** The two mixed-precision layouts in use today, as data: the calculator, chapters and cards read them from here. */
export const MIXED_PRECISION_LAYOUTS: Record<MixedPrecisionLayout, LayoutFacts> = {
  'half-weights': {
    label: 'DeepSpeed ZeRO: half-precision weights, fp32 master',
    short: 'DeepSpeed',
    frameworks: 'DeepSpeed ZeRO, the ZeRO paper',
    params: 2,
    grads: 2,
    master: 4,
    zero2: 'replicated-params',
    computeCopy: 0,
    reduction: 'the half-precision gradients (DeepSpeed: communication_data_type)',
    source:
      'Rajbhandari et al. 2020, section 3.1 (K = 12); DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py (bit16 groups, single_partition_of_fp32_groups)',
  },
  'fp32-weights': {
    label: 'PyTorch autocast / FSDP MixedPrecision: fp32 weights',
    short: 'PyTorch',
    frameworks:
      'PyTorch DDP + torch.autocast, FSDP MixedPrecision (FSDP1) and MixedPrecisionPolicy (FSDP2)',
    params: 4,
    grads: 4,
    master: 0,
    zero2: 'fsdp-shard-grad-op',
    computeCopy: 2,
    reduction:
      'fp32 for DDP unless a communication hook (bf16_compress_hook) compresses it; FSDP reduces in param_dtype unless reduce_dtype is set',
    source:
      'PyTorch torch/distributed/fsdp/_fully_shard/_fsdp_api.py MixedPrecisionPolicy ("keeps the high-precision sharded parameters"); torch/distributed/fsdp/api.py MixedPrecision; torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py bf16_compress_hook',
  },
};
export const LAYOUTS = Object.keys(MIXED_PRECISION_LAYOUTS) as MixedPrecisionLayout[];

/**
 * Megatron-LM is neither layout: in bf16 it keeps bf16 weights but accumulates and all-reduces gradients in fp32
 * by default (megatron/training/arguments.py, the `if args.bf16:` branch: "bfloat16 requires gradient
 * accumulation and all-reduce to be done in fp32", off only with --grad-reduce-in-bf16), plus the fp32 master
 * and Adam's moments. Its README's distributed-optimizer table gives the same 18 bytes.
 */
export const MEGATRON_BF16_BYTES = { params: 2, grads: 4, optimizer: 12 } as const;

/** "DeepSpeed (2 + 2 + 12)": a layout with its mixed-precision Adam bytes per parameter. */
export function layoutOptionLabel(layout: MixedPrecisionLayout): string {
  const b = bytesPerParam('bf16-mixed', 'adam', 'paper', layout);
  return `${MIXED_PRECISION_LAYOUTS[layout].short} (${b.params} + ${b.grads} + ${b.optimizer})`;
}

export interface BytesPerParam {
  params: number;
  grads: number;
  optimizer: number;
}

export interface MemoryInput {
  params: number;
  gpus: number;
  stage?: 0 | 1 | 2 | 3;
  strategy?: Strategy;
  precision?: Precision;
  optimizer?: Optimizer;
  accounting?: Accounting;
  /** Mixed precision only; 'half-weights' (the ZeRO paper's layout) unless given. */
  layout?: MixedPrecisionLayout;
}

export interface MemoryBreakdown {
  params: number;
  grads: number;
  optimizer: number;
  total: number;
}

export const STRATEGIES: readonly Strategy[] = ['ddp', 'zero1', 'zero2', 'zero3'];
export const STRATEGY_LABEL: Record<Strategy, string> = {
  ddp: 'DDP (replicated)',
  zero1: 'ZeRO-1 (P_os)',
  zero2: 'ZeRO-2 (P_os+g)',
  zero3: 'ZeRO-3 (P_os+g+p)',
};
export const PRECISION_LABEL: Record<Precision, string> = {
  fp32: 'fp32',
  'bf16-mixed': 'bf16/fp16 mixed',
};
export const OPTIMIZER_LABEL: Record<Optimizer, string> = {
  sgd: 'SGD',
  'sgd-momentum': 'SGD + momentum',
  adam: 'Adam',
};

const FP32 = 4;

/** Fp32 optimizer-state bytes per parameter, master copy excluded: momentum 4, Adam m and v 4 + 4. */
function stateBytes(optimizer: Optimizer): number {
  return optimizer === 'adam' ? 2 * FP32 : optimizer === 'sgd-momentum' ? FP32 : 0;
}

export function bytesPerParam(
  precision: Precision,
  optimizer: Optimizer,
  accounting: Accounting = 'paper',
  layout: MixedPrecisionLayout = 'half-weights',
): BytesPerParam {
  if (precision === 'fp32') return { params: FP32, grads: FP32, optimizer: stateBytes(optimizer) };
  const l = MIXED_PRECISION_LAYOUTS[layout];
  // Only the half-weights layout has a master copy for the source chapter's accounting to leave out.
  const master = accounting === 'paper' ? l.master : 0;
  return { params: l.params, grads: l.grads, optimizer: master + stateBytes(optimizer) };
}

export function stageOf(strategy: Strategy): 0 | 1 | 2 | 3 {
  return STRATEGIES.indexOf(strategy) as 0 | 1 | 2 | 3;
}

/**
 * Bytes per parameter of a whole-model low-precision compute copy a configuration holds at its peak, from the end
 * of forward into backward, in the fp32-weights layout. DDP and ZeRO-1 (DDP + ZeroRedundancyOptimizer) run under
 * torch.autocast, which casts each fp32 weight to bf16 for its matmul (aten/src/ATen/autocast_mode.cpp,
 * cached_cast), and autograd saves that copy for backward. FSDP SHARD_GRAD_OP keeps its bf16 unsharded parameters
 * from forward to backward. FULL_SHARD frees each unit's copy after its forward, except on one GPU, where FSDP falls
 * back to NO_SHARD and every stage holds what DDP holds. The half-weights layout computes on its stored bf16
 * weights: no copy.
 */
function computeCopyBytes(
  stage: number,
  precision: Precision,
  layout: MixedPrecisionLayout,
  gpus: number,
): number {
  if (precision !== 'bf16-mixed' || (stage === 3 && gpus > 1)) return 0;
  return MIXED_PRECISION_LAYOUTS[layout].computeCopy;
}

/** Which model states a stage splits across the data-parallel ranks (ZeRO paper, section 5). */
export function shardedStates(stage: 0 | 1 | 2 | 3): {
  params: boolean;
  grads: boolean;
  optimizer: boolean;
} {
  return { optimizer: stage >= 1, grads: stage >= 2, params: stage >= 3 };
}

/**
 * A memory input with its defaults filled in: the stage, bytes per parameter, any whole-model compute copy, and
 * which stored states are sharded (SHARD_GRAD_OP stores its parameters as shards beside its whole-model copy).
 */
function resolveLayout(input: Omit<MemoryInput, 'params' | 'gpus'>, gpus: number) {
  const stage = input.stage ?? stageOf(input.strategy ?? 'ddp');
  const precision = input.precision ?? 'bf16-mixed';
  const b = bytesPerParam(
    precision,
    input.optimizer ?? 'adam',
    input.accounting ?? 'paper',
    input.layout,
  );
  const copy = computeCopyBytes(stage, precision, input.layout ?? 'half-weights', gpus);
  const sharded = { ...shardedStates(stage), ...(copy > 0 && stage === 2 ? { params: true } : {}) };
  return { b, copy, sharded };
}

export function zeroPerGpuBreakdown(input: MemoryInput): MemoryBreakdown {
  const { params, gpus } = input;
  if (!(params >= 0) || !Number.isFinite(params))
    throw new RangeError(`params must be a finite number ≥ 0, got ${params}`);
  if (!Number.isInteger(gpus) || gpus < 1)
    throw new RangeError(`gpus must be an integer ≥ 1, got ${gpus}`);
  const { b, copy, sharded: s } = resolveLayout(input, gpus);
  const part = (bytes: number, sharded: boolean) => (params * bytes) / (sharded ? gpus : 1);
  const out = {
    params: params * copy + part(b.params, s.params),
    grads: part(b.grads, s.grads),
    optimizer: part(b.optimizer, s.optimizer),
  };
  return { ...out, total: out.params + out.grads + out.optimizer };
}

export function zeroPerGpuBytes(input: MemoryInput): number {
  return zeroPerGpuBreakdown(input).total;
}

/** The per-GPU formula in the paper's notation, e.g. "2Ψ + 2Ψ/N + 12Ψ/N" for ZeRO-2 mixed Adam. */
export function memoryFormula(input: Omit<MemoryInput, 'params' | 'gpus'>): string {
  // The formula is for N > 1, where FSDP SHARD_GRAD_OP holds its whole-model compute copy.
  const { b, copy, sharded: s } = resolveLayout(input, 2);
  const terms: [number, boolean][] = [
    [copy, false],
    [b.params, s.params],
    [b.grads, s.grads],
    [b.optimizer, s.optimizer],
  ];
  return terms
    .filter(([bytes]) => bytes > 0)
    .map(([bytes, sharded]) => `${bytes}Ψ${sharded ? '/N' : ''}`)
    .join(' + ');
}
