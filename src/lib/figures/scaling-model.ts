/**
 * Throughput versus number of ranks under the α–β model: each step computes for a fixed time per
 * rank (weak scaling, fixed per-rank batch) and pays the part of the gradient all-reduce not hidden.
 */
import { ringAllReduceSeconds, type AlphaBeta } from './all-reduce-time';
import { linkPreset } from './link-presets';
import { FLOPS_PER_PARAM_PER_TOKEN } from './efficiency';

/** Share of forward + backward spent in backward: 4 of the 6 FLOPs per parameter per token. */
export const BACKWARD_SHARE =
  FLOPS_PER_PARAM_PER_TOKEN.backward /
  (FLOPS_PER_PARAM_PER_TOKEN.forward + FLOPS_PER_PARAM_PER_TOKEN.backward);

export interface ScalingInputs {
  samplesPerRank: number;
  /** Forward + backward seconds for one rank's batch. */
  computeSeconds: number;
  gradientBytes: number;
  link: AlphaBeta;
  /** Fraction of the all-reduce that may run concurrently with backward, 0 (none) to 1 (all of it). */
  overlap: number;
  /** Share of computeSeconds that is backward, the only phase communication can hide behind (default 4/6). */
  backwardShare?: number;
}

export interface ScalingPoint {
  n: number;
  throughput: number;
  ideal: number;
  efficiency: number;
  commSeconds: number;
}

export function scalingPoint(n: number, s: ScalingInputs): ScalingPoint {
  const commSeconds = ringAllReduceSeconds(s.gradientBytes, n, s.link);
  // Gradients exist only during backward, so at most the backward time can cover the all-reduce.
  const hidden = Math.min(
    commSeconds * s.overlap,
    s.computeSeconds * (s.backwardShare ?? BACKWARD_SHARE),
  );
  const step = s.computeSeconds + commSeconds - hidden;
  const ideal = (n * s.samplesPerRank) / s.computeSeconds;
  const throughput = (n * s.samplesPerRank) / step;
  return { n, throughput, ideal, efficiency: throughput / ideal, commSeconds };
}

export function scalingCurve(ns: readonly number[], s: ScalingInputs): ScalingPoint[] {
  return ns.map((n) => scalingPoint(n, s));
}

/** The widget's default: fp32 gradients of a 355M-parameter model (GPT-2 medium) over 100 GbE, no overlap. */
export const SCALING_DEFAULTS = {
  params: 355e6,
  bytesPerGradient: 4,
  samplesPerRank: 8,
  computeSeconds: 0.25,
  linkId: 'ethernet',
  worldSizes: [1, 2, 4, 8, 16, 32, 64],
} as const;

export function defaultScalingInputs(overlap = 0): ScalingInputs {
  const d = SCALING_DEFAULTS;
  return {
    samplesPerRank: d.samplesPerRank,
    computeSeconds: d.computeSeconds,
    gradientBytes: d.params * d.bytesPerGradient,
    link: linkPreset(d.linkId),
    overlap,
  };
}
