/**
 * Step time of data-parallel training from compute and gradient communication, on a cluster of the
 * simulation's presets: the all-reduce is the cluster model's (NCCL's algorithms on the topology),
 * compute is 6Ψ FLOPs per token at the preset GPU's dense bf16 peak times an MFU.
 */
import {
  clusterPreset,
  clusterShape,
  predictCollective,
  worldSize,
  type ClusterShape,
  type CollectivePrediction,
} from '../../../playground/simulation/index.ts';

/** The book's reference GPU, read from the preset list (NVIDIA H100 SXM datasheet, dense bf16). */
const H100 = clusterPreset('h100-ndr').gpu;
export const H100_BF16_DENSE_FLOPS = H100.bf16Flops.value;
/** NVIDIA H100 SXM datasheet: 80 GB of HBM3 per GPU (from the preset list). */
export const H100_MEMORY_BYTES = H100.hbmBytes.value;
/** A model-FLOPs utilisation well-tuned large runs report; the reader can change it. */
export const DEFAULT_MFU = 0.4;
/** Training FLOPs per parameter per token: 2 forward + 4 backward (Kaplan et al., 2020). */
export const FLOPS_PER_PARAM_PER_TOKEN = { forward: 2, backward: 4 } as const;

/** Share of forward + backward spent in backward: 4 of the 6 FLOPs per parameter per token. */
export const BACKWARD_SHARE =
  FLOPS_PER_PARAM_PER_TOKEN.backward /
  (FLOPS_PER_PARAM_PER_TOKEN.forward + FLOPS_PER_PARAM_PER_TOKEN.backward);

/**
 * The book's one overlap rule: gradients exist only during backward, so communication hides behind
 * the backward pass and nothing else. `overlap` is the fraction of it allowed to run concurrently.
 */
export function overlappedStepSeconds(
  forward: number,
  backward: number,
  comm: number,
  overlap = 1,
): number {
  return forward + backward + comm - Math.min(comm * overlap, backward);
}

/** A cluster laid out as nodes × GPUs per node from a world size: full nodes, or part of one. */
export function shapeForWorld(presetId: string, gpus: number): ClusterShape {
  const perNode = clusterPreset(presetId).gpusPerNode.value;
  if (gpus <= perNode) return clusterShape(presetId, 1, gpus);
  if (gpus % perNode !== 0)
    throw new RangeError(`${gpus} GPUs do not fill whole ${perNode}-GPU nodes of ${presetId}`);
  return clusterShape(presetId, gpus / perNode, perNode);
}

export interface StepInput {
  params: number;
  /** Tokens (or samples × tokens per sample) each GPU processes per optimizer step. */
  tokensPerGpu: number;
  cluster: ClusterShape;
  /** Bytes per gradient element on the wire: 2 for bf16/fp16 gradients, 4 for fp32. */
  gradBytes?: number;
  mfu?: number;
}

export interface StepEstimate {
  gpus: number;
  forward: number;
  backward: number;
  compute: number;
  allReduce: number;
  /** The cluster model's answer: algorithm, protocol, bus bandwidth. */
  collective: CollectivePrediction;
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
  const { params, tokensPerGpu, cluster } = input;
  const gradBytes = input.gradBytes ?? 2;
  const peak = cluster.preset.gpu.bf16Flops.value;
  const mfu = input.mfu ?? DEFAULT_MFU;
  const forward = computeSeconds(params, tokensPerGpu, 'forward', peak, mfu);
  const backward = computeSeconds(params, tokensPerGpu, 'backward', peak, mfu);
  const collective = predictCollective(cluster, 'all-reduce', params * gradBytes);
  const allReduce = collective.seconds;
  const compute = forward + backward;
  const stepOverlapped = overlappedStepSeconds(forward, backward, allReduce);
  const backwardPerToken = computeSeconds(params, 1, 'backward', peak, mfu);
  return {
    gpus: worldSize(cluster),
    forward,
    backward,
    compute,
    allReduce,
    collective,
    stepOverlapped,
    stepSerial: compute + allReduce,
    efficiency: Math.min(1, compute / stepOverlapped),
    bound: allReduce > backward ? 'network' : 'compute',
    breakEvenTokensPerGpu: allReduce / backwardPerToken,
  };
}

/** Ratio of communication to computation, the number exercise 3 of chapter 4 asks for. */
export function commToComputeRatio(e: Pick<StepEstimate, 'allReduce' | 'compute'>): number {
  return e.allReduce / e.compute;
}
