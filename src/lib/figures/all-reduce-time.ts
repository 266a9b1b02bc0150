/**
 * The α–β cost model of ring collectives: each of the 2(n−1) steps of an all-reduce pays a
 * latency α and moves D/n bytes at β = 1/bandwidth seconds per byte.
 */

export interface AlphaBeta {
  /** Seconds per step. */
  alpha: number;
  /** Bytes per second on the slowest link of the ring. */
  bandwidth: number;
}

/** T ≈ 2(n−1)·α + 2·(n−1)/n · D·β. */
export function ringAllReduceSeconds(bytes: number, n: number, link: AlphaBeta): number {
  if (n <= 1) return 0;
  return 2 * (n - 1) * link.alpha + (((2 * (n - 1)) / n) * bytes) / link.bandwidth;
}

/** Reduce-scatter or all-gather alone: half of the all-reduce, (n−1) steps. */
export function ringHalfSeconds(bytes: number, n: number, link: AlphaBeta): number {
  if (n <= 1) return 0;
  return (n - 1) * link.alpha + (((n - 1) / n) * bytes) / link.bandwidth;
}

/** The latency and bandwidth terms separately, to show which one dominates. */
export function ringAllReduceTerms(
  bytes: number,
  n: number,
  link: AlphaBeta,
): { latency: number; transfer: number } {
  if (n <= 1) return { latency: 0, transfer: 0 };
  return {
    latency: 2 * (n - 1) * link.alpha,
    transfer: (((2 * (n - 1)) / n) * bytes) / link.bandwidth,
  };
}

/** nccl-tests "bus bandwidth" factor, defined once in the cluster model: all-reduce 2(n−1)/n, RS/AG (n−1)/n, broadcast 1. */
export { busBandwidthFactor } from '../../../playground/simulation/index.ts';
