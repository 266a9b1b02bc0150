/**
 * Published training throughput (tokens/s per GPU) reproduced from the simulation's public pieces:
 * the step's compute by the roofline at the simulation's default efficiency, plus the collectives an
 * FSDP2 step issues, timed by the cluster model and overlapped as chapter 6 describes. A pure
 * function, so the table in tests/calibration/training-throughput.test.ts can pin every figure.
 *
 * What a step is here (torchtitan's FSDP2 defaults, torchtitan/parallelisms/parallelize_llama.py at
 * commit 4d88a8a, Dec 2024): `fully_shard` per transformer block plus the root, MixedPrecisionPolicy
 * param_dtype bf16 and reduce_dtype fp32 (config_manager.py defaults), reshard_after_forward on every
 * block but the last. So per block: one bf16 all-gather before forward, one before backward, one fp32
 * reduce-scatter after backward. FSDP2 prefetches the next block's all-gather while the current one
 * computes, so only the first all-gather and the last reduce-scatter are exposed, plus whatever
 * communication is longer than the compute it hides behind.
 */
import {
  fusedOptimizerCost,
  predictCollective,
  resolveCluster,
  rooflineSeconds,
  type GpuSpec,
} from '../../../playground/simulation/index.ts';

/** The simulation's default roofline efficiency, defined once in playground/simulation/cluster-options.ts. */
export { DEFAULT_SIM_EFFICIENCY as SIM_DEFAULT_EFFICIENCY } from '../../../playground/simulation/index.ts';

export interface TransformerShape {
  name: string;
  /** Every parameter, embeddings included (what FSDP shards and moves). */
  params: number;
  layers: number;
  heads: number;
  dim: number;
  seqLen: number;
}

/** Llama 3 / 3.1 8B as torchtitan builds it (torchtitan/models/llama/__init__.py "8B": dim 4096, 32 layers, 32 heads; 8.03 B parameters with the 128,256-token vocabulary). */
export const LLAMA3_8B: TransformerShape = {
  name: 'Llama 3 8B',
  params: 8.03e9,
  layers: 32,
  heads: 32,
  dim: 4096,
  seqLen: 8192,
};

/**
 * The FLOPs torchtitan's MFU counts per token (torchtitan/utils.py get_num_flop_per_token, commit
 * 4d88a8a): 6 × params + 12 × layers × heads × head_dim × seq_len (attention's matmuls, causal
 * sparsity not discounted, recomputation not counted).
 */
export function flopsPerToken(m: TransformerShape): number {
  return 6 * m.params + 12 * m.layers * m.heads * (m.dim / m.heads) * m.seqLen;
}

/**
 * The H100 torchtitan's 2024 benchmarks ran on (benchmarks/llama3_h100_202412_torchtitan.md, Grand
 * Teton: "96GB HBM2e with 2.4 TB/sec peak memory bandwidth", "the default 500W power limit"). Its bf16
 * peak is not published: docs/performance.md (torchtitan commit 4d88a8a) says "the actual peak TFLOPs
 * number is between SXM and NVL, and we don't know its exact value". The book takes the NVL end,
 * 835.5 TFLOPS dense (NVIDIA H100 datasheet, H100 NVL column: BF16 Tensor Core 1,671 TFLOPS with
 * sparsity), a choice inside the published range, not a measurement; with the SXM peak the same
 * reproduction is about 40 % fast (the test pins both).
 */
export const H100_GRAND_TETON: GpuSpec = {
  name: 'H100 SXM 96GB HBM2e at 500 W (Grand Teton)',
  bf16Flops: {
    value: 835.5e12,
    source:
      'https://github.com/pytorch/torchtitan/blob/4d88a8a44fe439f73f564b83d60b29a906ef3507/docs/performance.md (footnote 1: peak between SXM and NVL) and https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet (H100 NVL: BF16 1,671 TFLOPS with sparsity → 835.5 dense)',
  },
  fp32Flops: {
    value: 60e12,
    source:
      'https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet (H100 NVL FP32 60 TFLOPS, the same end of the range)',
  },
  hbmBandwidth: {
    value: 2.4e12,
    source:
      'https://github.com/pytorch/torchtitan/blob/820504e20d1149fbf0b98c567af24c4b0433b22d/benchmarks/llama3_h100_202412_torchtitan.md ("96GB HBM2e with 2.4 TB/sec peak memory bandwidth")',
  },
  hbmBytes: {
    value: 96e9,
    source:
      'https://github.com/pytorch/torchtitan/blob/820504e20d1149fbf0b98c567af24c4b0433b22d/benchmarks/llama3_h100_202412_torchtitan.md',
  },
};

export interface FsdpRun {
  preset: string;
  nodes: number;
  gpusPerNode: number;
  model: TransformerShape;
  /** Sequences per GPU per step. */
  localBatch: number;
  /** The GPU as run, when it differs from the preset's (e.g. a power-capped part). */
  gpu?: GpuSpec;
  /** Fraction of bf16 peak the step's model FLOPs reach; the simulation's default unless given. */
  efficiency?: number;
}

export interface FsdpStep {
  tokensPerGpu: number;
  computeSeconds: number;
  optimizerSeconds: number;
  /** All the step's collectives back to back. */
  commSeconds: number;
  /** Communication the compute does not hide: first all-gather, last reduce-scatter, any excess. */
  exposedCommSeconds: number;
  stepSeconds: number;
  tokensPerSecondPerGpu: number;
  /** The model FLOPs utilisation this step implies against the GPU's bf16 peak. */
  mfu: number;
}

export function fsdpStep(run: FsdpRun): FsdpStep {
  // The run's cluster resolved as a simulated run's is: the simulation's default efficiency unless given.
  const { shape, efficiency } = resolveCluster(run);
  const gpu = run.gpu ?? shape.preset.gpu;
  const world = run.nodes * run.gpusPerNode;
  const m = run.model;
  const tokensPerGpu = run.localBatch * m.seqLen;
  const computeSeconds = rooflineSeconds(
    { flops: flopsPerToken(m) * tokensPerGpu, bytes: 0 },
    gpu,
    {
      unit: 'bf16-tensor',
      efficiency,
    },
  ).seconds;
  // Fused AdamW over this rank's fp32 shard: memory bound (roofline.ts fusedOptimizerCost).
  const optimizerSeconds = rooflineSeconds(fusedOptimizerCost(m.params / world, 2), gpu, {
    unit: 'fp32',
  }).seconds;
  const perBlock = m.params / m.layers;
  const allGather = predictCollective(shape, 'all-gather', perBlock * 2).seconds;
  const reduceScatter = predictCollective(shape, 'reduce-scatter', perBlock * 4).seconds;
  const commSeconds = m.layers * (2 * allGather + reduceScatter);
  const hidden = commSeconds - allGather - reduceScatter;
  const exposedCommSeconds = allGather + reduceScatter + Math.max(0, hidden - computeSeconds);
  const stepSeconds = computeSeconds + optimizerSeconds + exposedCommSeconds;
  const tokensPerSecondPerGpu = tokensPerGpu / stepSeconds;
  return {
    tokensPerGpu,
    computeSeconds,
    optimizerSeconds,
    commSeconds,
    exposedCommSeconds,
    stepSeconds,
    tokensPerSecondPerGpu,
    mfu: (flopsPerToken(m) * tokensPerSecondPerGpu) / gpu.bf16Flops.value,
  };
}
