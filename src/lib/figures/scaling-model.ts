/**
 * Throughput versus number of ranks on a cluster preset: each rank computes a fixed batch (weak
 * scaling) and pays the part of the cluster model's gradient all-reduce the backward pass does not hide.
 */
import { predictCollective, clusterPreset } from '../../../playground/simulation/index.ts';
import { computeSeconds, overlappedStepSeconds, shapeForWorld, DEFAULT_MFU } from './efficiency';

export { BACKWARD_SHARE } from './efficiency';

export interface ScalingInputs {
  /** A cluster preset id; n ranks fill one node first, then whole nodes. */
  presetId: string;
  samplesPerRank: number;
  forwardSeconds: number;
  backwardSeconds: number;
  gradientBytes: number;
  /** Fraction of the all-reduce that may run concurrently with backward, 0 (none) to 1 (all of it). */
  overlap: number;
}

export interface ScalingPoint {
  n: number;
  nodes: number;
  throughput: number;
  ideal: number;
  efficiency: number;
  commSeconds: number;
}

export function scalingPoint(n: number, s: ScalingInputs): ScalingPoint {
  const shape = shapeForWorld(s.presetId, n);
  const commSeconds = predictCollective(shape, 'all-reduce', s.gradientBytes).seconds;
  const compute = s.forwardSeconds + s.backwardSeconds;
  const step = overlappedStepSeconds(s.forwardSeconds, s.backwardSeconds, commSeconds, s.overlap);
  const ideal = (n * s.samplesPerRank) / compute;
  const throughput = (n * s.samplesPerRank) / step;
  return { n, nodes: shape.nodes, throughput, ideal, efficiency: throughput / ideal, commSeconds };
}

export function scalingCurve(ns: readonly number[], s: ScalingInputs): ScalingPoint[] {
  return ns.map((n) => scalingPoint(n, s));
}

/**
 * The widget's default: GPT-2 medium (355M parameters) with fp32 gradients, 8 samples of 1,024
 * tokens per rank, on A100 nodes joined by one 100 GbE NIC each: NVLink up to 8 ranks, Ethernet beyond.
 */
export const SCALING_DEFAULTS = {
  params: 355e6,
  bytesPerGradient: 4,
  samplesPerRank: 8,
  tokensPerSample: 1024,
  presetId: 'a100-100gbe',
  worldSizes: [1, 2, 4, 8, 16, 32, 64],
} as const;

export function defaultScalingInputs(overlap = 0): ScalingInputs {
  const d = SCALING_DEFAULTS;
  const tokens = d.samplesPerRank * d.tokensPerSample;
  const peak = clusterPreset(d.presetId).gpu.bf16Flops.value;
  return {
    presetId: d.presetId,
    samplesPerRank: d.samplesPerRank,
    forwardSeconds: computeSeconds(d.params, tokens, 'forward', peak, DEFAULT_MFU),
    backwardSeconds: computeSeconds(d.params, tokens, 'backward', peak, DEFAULT_MFU),
    gradientBytes: d.params * d.bytesPerGradient,
    overlap,
  };
}
