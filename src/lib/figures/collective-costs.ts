/**
 * Chapter 2's cost figures: bytes each rank moves in a ring all-reduce versus a gather-to-one
 * all-reduce, the α–β time split, and the algorithm / bus bandwidth that nccl-tests reports.
 */
import {
  busBandwidthFactor,
  ringAllReduceSeconds,
  ringAllReduceTerms,
  type AlphaBeta,
} from './all-reduce-time';
import { shapeForWorld } from './efficiency';
import {
  clusterPreset,
  predictCollective,
  type ClusterPreset,
  type CollectivePrediction,
} from '../../../playground/simulation/index.ts';

/** Bytes one rank sends (and, symmetrically, receives) in a ring all-reduce of D bytes: 2(n−1)/n · D. */
export function ringBytesSentPerRank(n: number, bytes: number): number {
  return n <= 1 ? 0 : ((2 * (n - 1)) / n) * bytes;
}

/** Bytes the root receives when every rank sends its whole buffer to one rank, which then sends the sum back: (n−1) · D. */
export function rootBytesReceivedNaive(n: number, bytes: number): number {
  return Math.max(0, n - 1) * bytes;
}

export interface TrafficRow {
  n: number;
  ringPerRank: number;
  naiveRoot: number;
  latency: number;
  transfer: number;
  total: number;
  /** nccl-tests algbw = D / T and busbw = algbw · 2(n−1)/n, both in bytes per second. */
  algbw: number;
  busbw: number;
}

/** One row per world size: what the ring buys over gathering on one rank, and where the time goes. */
export function trafficTable(ns: readonly number[], bytes: number, link: AlphaBeta): TrafficRow[] {
  return ns.map((n) => {
    const { latency, transfer } = ringAllReduceTerms(bytes, n, link);
    const total = ringAllReduceSeconds(bytes, n, link);
    const algbw = bytes / total;
    return {
      n,
      ringPerRank: ringBytesSentPerRank(n, bytes),
      naiveRoot: rootBytesReceivedNaive(n, bytes),
      latency,
      transfer,
      total,
      algbw,
      busbw: algbw * busBandwidthFactor('all-reduce', n),
    };
  });
}

/** Message size at which the latency and bandwidth terms of a ring all-reduce are equal: D* = n·α/β. */
export function latencyBandwidthCrossover(n: number, link: AlphaBeta): number {
  return n * link.alpha * link.bandwidth;
}

/** The chapter's worked example: the bf16 gradients of a 1B-parameter model. */
export const CHAPTER2_EXAMPLE = {
  params: 1e9,
  bytesPerGradient: 2,
  worldSizes: [2, 4, 8, 16, 64, 256],
} as const;

/** Bandwidth in decimal GB/s, one decimal, as nccl-tests prints it. */
export function fmtGBs(bytesPerSecond: number): string {
  return `${(bytesPerSecond / 1e9).toFixed(1)} GB/s`;
}

/** The cluster model's all-reduce of `bytes` on n GPUs of a preset (one node first, then whole nodes). */
export function clusterAllReduce(presetId: string, n: number, bytes: number): CollectivePrediction {
  return predictCollective(shapeForWorld(presetId, n), 'all-reduce', bytes);
}

/** The preset chapter 2 holds the α–β ring against: DGX H100 nodes, with and without NVLink SHARP. */
export const CHAPTER2_CLUSTER = { nvls: 'h100-ndr', ring: 'h100-ndr-no-nvls' } as const;

export function chapter2Preset(): ClusterPreset {
  return clusterPreset(CHAPTER2_CLUSTER.nvls);
}

/**
 * All-to-all by pairwise exchange in the α–β model: n − 1 steps, each sending D/n to one peer, so
 * (n−1)·α + (n−1)/n · D·β (Thakur, Rabenseifner and Gropp 2005, pairwise exchange for long messages). NCCL posts the
 * n − 1 sends and receives as one group (nccl-tests src/alltoall.cu: ncclSend/ncclRecv between
 * ncclGroupStart and ncclGroupEnd); nccl-tests reports its bus bandwidth with factor (n−1)/n.
 */
export function allToAllSeconds(bytes: number, n: number, link: AlphaBeta): number {
  if (n <= 1) return 0;
  return (n - 1) * link.alpha + (((n - 1) / n) * bytes) / link.bandwidth;
}

/** Share of each rank's all-to-all bytes addressed to other nodes: (n − g)/n for g GPUs per node. */
export function allToAllOffNodeFraction(n: number, gpusPerNode: number): number {
  return n <= gpusPerNode ? 0 : (n - gpusPerNode) / n;
}

/** Chapter 2's all-to-all example: 128 MiB per rank (a layer's tokens, routed to experts or re-split by heads). */
export const CHAPTER2_ALL_TO_ALL = {
  bytes: 128 * 2 ** 20,
  worldSizes: [8, 64, 256],
  gpusPerNode: 8,
} as const;
