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

/** Llama 3 70B as torchtitan builds it (the same file, "70B": dim 8192, 80 layers, 64 heads, 8 KV heads, FFN 28,672): 70.55 B parameters with embeddings. */
export const LLAMA3_70B: TransformerShape = {
  name: 'Llama 3 70B',
  params: 70.55e9,
  layers: 80,
  heads: 64,
  dim: 8192,
  seqLen: 8192,
};

/** Llama 2 13B as torchtitan builds it (torchtitan/models/llama/__init__.py llama2_configs "13B": dim 5120, 40 layers, 40 heads, FFN 13,824, vocabulary 32,000; sequence 4,096): 13.016 B parameters. */
export const LLAMA2_13B: TransformerShape = {
  name: 'Llama 2 13B',
  params: 13.016e9,
  layers: 40,
  heads: 40,
  dim: 5120,
  seqLen: 4096,
};

/**
 * The FLOPs torchtitan's MFU counts per token (torchtitan/utils.py get_num_flop_per_token, commit
 * 4d88a8a): 6 × params + 12 × layers × heads × head_dim × seq_len (attention's matmuls, causal
 * sparsity not discounted, recomputation not counted). docs/performance.md's A100 MFUs (56.8 %,
 * 51.7 %, 61.1 %) come out of this count with every parameter; the December 2024 H100 benchmark's
 * "33% to 39% MFU" comes out of it only with the embedding table left out (`excludeEmbedding`, the
 * vocabulary × dim parameters of the input embedding), as later torchtitan counts.
 */
export function flopsPerToken(m: TransformerShape, excludeEmbedding = 0): number {
  return 6 * (m.params - excludeEmbedding) + 12 * m.layers * m.heads * (m.dim / m.heads) * m.seqLen;
}

/**
 * The H100 torchtitan's 2024 benchmarks ran on (benchmarks/llama3_h100_202412_torchtitan.md, Grand
 * Teton: "96GB HBM2e with 2.4 TB/sec peak memory bandwidth", "the default 500W power limit"). Its
 * true bf16 peak is not published (footnote 2: "between SXM and NVL, and we don't know its exact
 * value"), so the book charges it the peak torchtitan itself divides by for its MFU, the SXM
 * datasheet's 989.4 TFLOPS, and says what that implies: at the simulation's 50 % the step comes out
 * about 40 % faster than published, because this part reached 33 % of that peak (torchtitan: "33% to
 * 39% MFU", without and with torch.compile), where the A100 runs of the same FSDP2 code reach 51–61 %.
 */
export const H100_GRAND_TETON: GpuSpec = {
  name: 'H100 SXM 96GB HBM2e at 500 W (Grand Teton)',
  bf16Flops: {
    value: 989.4e12,
    source:
      'https://github.com/pytorch/torchtitan/blob/820504e20d1149fbf0b98c567af24c4b0433b22d/benchmarks/llama3_h100_202412_torchtitan.md (footnote 2: the MFU divides by the SXM peak; the true peak of the 500 W part is unknown) and https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet (H100 SXM: BF16 1,979 TFLOPS with sparsity → 989.4 dense)',
  },
  fp32Flops: {
    value: 67e12,
    source:
      'https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet (H100 SXM FP32 67 TFLOPS)',
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
