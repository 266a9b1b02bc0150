/**
 * Step time of data-parallel training from compute and gradient communication: when the ring
 * all-reduce can no longer hide behind the backward pass, the job is network bound.
 */
import { ringAllReduceSeconds, type AlphaBeta } from './all-reduce-time';

/** NVIDIA H100 SXM datasheet: 989 TFLOP/s dense BF16 (the 1,979 figure assumes 2:4 sparsity). */
export const H100_BF16_DENSE_FLOPS = 989e12;
/** A model-FLOPs utilisation well-tuned large runs report; the reader can change it. */
export const DEFAULT_MFU = 0.4;
/** Training FLOPs per parameter per token: 2 forward + 4 backward (Kaplan et al., 2020). */
export const FLOPS_PER_PARAM_PER_TOKEN = { forward: 2, backward: 4 } as const;

export interface StepInput {
  params: number;
  /** Tokens (or samples × tokens per sample) each GPU processes per optimizer step. */
  tokensPerGpu: number;
  gpus: number;
  link: AlphaBeta;
  /** Bytes per gradient element on the wire: 2 for bf16/fp16 gradients, 4 for fp32. */
  gradBytes?: number;
  peakFlops?: number;
  mfu?: number;
}

export interface StepEstimate {
  forward: number;
  backward: number;
  compute: number;
  allReduce: number;
  /** Communication overlapped with the backward pass (DDP with buckets). */
  stepOverlapped: number;
  /** Communication after the whole backward (the naive wrapper). */
  stepSerial: number;
  /** Fraction of ideal linear scaling kept with overlap: compute / step. */
  efficiency: number;
  bound: 'compute' | 'network';
  /** Tokens per GPU per step at which the all-reduce exactly fills the backward pass. */
  breakEvenTokensPerGpu: number;
}

export function computeSeconds(
  params: number,
  tokens: number,
  phase: 'forward' | 'backward',
  peakFlops = H100_BF16_DENSE_FLOPS,
  mfu = DEFAULT_MFU,
): number {
  return (FLOPS_PER_PARAM_PER_TOKEN[phase] * params * tokens) / (peakFlops * mfu);
}

export function estimateStep(input: StepInput): StepEstimate {
  const { params, tokensPerGpu, gpus, link } = input;
  const gradBytes = input.gradBytes ?? 2;
  const peak = input.peakFlops ?? H100_BF16_DENSE_FLOPS;
  const mfu = input.mfu ?? DEFAULT_MFU;
  const forward = computeSeconds(params, tokensPerGpu, 'forward', peak, mfu);
  const backward = computeSeconds(params, tokensPerGpu, 'backward', peak, mfu);
  const allReduce = ringAllReduceSeconds(params * gradBytes, gpus, link);
  const compute = forward + backward;
  const stepOverlapped = forward + Math.max(backward, allReduce);
  const backwardPerToken = backward / Math.max(tokensPerGpu, Number.MIN_VALUE);
  return {
    forward,
    backward,
    compute,
    allReduce,
    stepOverlapped,
    stepSerial: compute + allReduce,
    efficiency: compute / stepOverlapped,
    bound: allReduce > backward ? 'network' : 'compute',
    breakEvenTokensPerGpu: allReduce / backwardPerToken,
  };
}

/** Ratio of communication to computation, the number exercise 3 of chapter 4 asks for. */
export function commToComputeRatio(e: Pick<StepEstimate, 'allReduce' | 'compute'>): number {
  return e.allReduce / e.compute;
}

/** NVIDIA H100 SXM datasheet: 80 GB of HBM3 per GPU. */
export const H100_MEMORY_BYTES = 80e9;
