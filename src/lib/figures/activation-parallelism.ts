/**
 * What model parallelism does to activation memory per GPU, after Megatron-LM's own estimator
 * (megatron/training/theoretical_memory_usage.py, compute_activation_memory and
 * compute_activation_memory_without_sp, which cite Table 2 of Korthikanti et al. 2022) and
 * Megatron-Core's context-parallel guide (docs/source/api-guide/context_parallel.rst).
 *
 * Tensor parallelism without sequence parallelism leaves the LayerNorm and dropout inputs (10sbh)
 * whole on every GPU; sequence parallelism splits those along the sequence too, so everything is
 * divided by t. Context parallelism splits every activation along the sequence over c GPUs.
 * Pipeline parallelism divides the layers but not the activations: under 1F1B the first stage holds
 * L/p layers for up to p micro-batches in flight, about one whole model's worth.
 */
import {
  activationBytesPerLayer,
  type Recompute,
  type TransformerShape,
} from './activation-memory';

export interface ModelParallelism {
  /** Tensor-parallel degree t. */
  tensor: number;
  /** Sequence parallelism on the tensor-parallel group (Megatron --sequence-parallel). */
  sequenceParallel: boolean;
  /** Context-parallel degree c (the sequence split over c GPUs, attention exchanges K and V). */
  context: number;
}

export const NO_MODEL_PARALLELISM: ModelParallelism = {
  tensor: 1,
  sequenceParallel: false,
  context: 1,
};

/**
 * Bytes one layer keeps per GPU. Without sequence parallelism this is Korthikanti's Eq. 2 (and its
 * selective form sbh(10 + 24/t)); with it, Eq. 4, sbh(34 + 5as/h)/t (selective: 34sbh/t, the
 * number compute_activation_memory uses). Context parallelism runs each GPU on s/c tokens of every
 * sequence; the attention-score term then counts s/c queries against all s keys, so it too falls by c.
 */
export function activationBytesPerLayerPerGpu(
  x: TransformerShape,
  par: ModelParallelism,
  recompute: Recompute = 'selective',
): number {
  const c = par.context;
  const local = { ...x, seq: x.seq / c, tensorParallel: 1 };
  const sbh = local.seq * x.micro * x.hidden;
  const t = par.tensor;
  const scores = (5 * x.heads * local.seq * x.micro * x.seq) / t; // 5·a·(s/c)·s·b, split over heads by t
  if (recompute === 'full') return (2 * sbh) / (par.sequenceParallel ? t : 1);
  if (par.sequenceParallel) {
    const linear = (34 * sbh) / t;
    return recompute === 'selective' ? linear : linear + scores;
  }
  const linear = activationBytesPerLayer({ ...local, tensorParallel: t }, 'selective');
  return recompute === 'selective' ? linear : linear + scores;
}

export type PipelineSchedule = 'gpipe' | '1f1b' | 'interleaved-1f1b';

export interface PipelineInput {
  /** Pipeline stages p. */
  stages: number;
  /** Micro-batches per step m. */
  microBatches: number;
  /** Model chunks per stage v (interleaved schedule only). */
  virtualStages?: number;
}

/** Micro-batches whose activations the first stage holds at its peak, in units of its own L/p layers. */
export function firstStageMicroBatchesInFlight(
  schedule: PipelineSchedule,
  p: PipelineInput,
): number {
  if (schedule === 'gpipe') return p.microBatches; // every forward runs before any backward
  const inFlight = Math.min(p.microBatches, p.stages); // 1F1B: warm-up of p forwards, then one in, one out
  if (schedule === '1f1b') return inFlight;
  const v = p.virtualStages ?? 1;
  // Megatron: activation_memory *= 1 + (p − 1)/(p·v) on top of p in flight.
  return p.stages * (1 + (p.stages - 1) / (p.stages * v));
}

/**
 * Activation bytes on the first pipeline stage's GPU for the transformer layers: per-layer bytes
 * × (L/p layers) × micro-batches in flight. With 1F1B and m ≥ p this is the per-layer bytes × L,
 * what the whole model holds without pipelining.
 */
export function firstStageActivationBytes(
  x: TransformerShape & { layers: number },
  par: ModelParallelism,
  recompute: Recompute,
  schedule: PipelineSchedule,
  pipe: PipelineInput,
): number {
  const perLayer = activationBytesPerLayerPerGpu(x, par, recompute);
  return (perLayer * x.layers * firstStageMicroBatchesInFlight(schedule, pipe)) / pipe.stages;
}
