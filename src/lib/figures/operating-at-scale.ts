/**
 * Arithmetic for operating data parallelism at scale: flat versus hierarchical all-reduce in the α–β
 * model of chapter 2 and in the cluster model (playground/simulation), HSDP's two collectives, failure rates at thousands of GPUs, sharded checkpoints
 * resharded to another world size, and how much less local SGD / DiLoCo talk (Douillard et al. 2023).
 */
import { ringAllReduceSeconds, ringHalfSeconds, type AlphaBeta } from './all-reduce-time';
import {
  clusterShape,
  predictCollective,
  type CollectivePrediction,
} from '../../../playground/simulation/index.ts';

export interface Cluster {
  nodes: number;
  gpusPerNode: number;
  intra: AlphaBeta;
  /** Per-NIC link; one NIC per GPU ("rails"), as in a DGX H100. */
  inter: AlphaBeta;
}

/** One flat ring over every GPU: every step is as slow as its slowest hop, the network. */
export function flatRingSeconds(bytes: number, c: Cluster): number {
  return ringAllReduceSeconds(bytes, c.nodes * c.gpusPerNode, c.inter);
}

/**
 * Hierarchical all-reduce: reduce-scatter inside the node (NVLink), then each GPU all-reduces its 1/g
 * slice with the same-index GPU of every other node over its own NIC (one ring per rail), then all-gather inside.
 */
export function hierarchicalSeconds(
  bytes: number,
  c: Cluster,
): { intra: number; inter: number; total: number } {
  const g = c.gpusPerNode;
  const intra = 2 * ringHalfSeconds(bytes, g, c.intra);
  const inter = ringAllReduceSeconds(bytes / g, c.nodes, c.inter);
  return { intra, inter, total: intra + inter };
}

/** The cluster chapter 9 holds the whiteboard against: DGX H100 nodes (NVLink SHARP, 8 × NDR 400 Gb/s rails). */
export const SCALE_MODEL_CLUSTER = { preset: 'h100-ndr', nodes: 16, gpusPerNode: 8 } as const;

/** One message size, all-reduced by the cluster model four ways. */
export interface ModelAllReduceRow {
  bytes: number;
  /** One node, the ring forced (NCCL_ALGO=Ring): every byte over NVLink, GPU to GPU. */
  nodeRing: CollectivePrediction;
  /** One node, the algorithm NCCL's tuner would pick (NVLink SHARP on this preset, for large sizes). */
  nodeBest: CollectivePrediction;
  /** Every node, the ring forced: one ring per rail, each crossing every node boundary once. */
  clusterRing: CollectivePrediction;
  /** Every node, NCCL's pick: a tree across nodes, with NVLink SHARP inside them where it has it. */
  clusterBest: CollectivePrediction;
}

/**
 * The cluster model's all-reduce (playground/simulation/collective-model.ts) on one node and on the
 * whole cluster, ring forced and NCCL's choice, for each size (nccl-tests' size: the whole buffer).
 */
export function modelAllReduceRows(
  sizes: readonly number[],
  c: { preset: string; nodes: number; gpusPerNode: number } = SCALE_MODEL_CLUSTER,
): ModelAllReduceRow[] {
  const node = clusterShape(c.preset, 1, c.gpusPerNode);
  const all = clusterShape(c.preset, c.nodes, c.gpusPerNode);
  return sizes.map((bytes) => ({
    bytes,
    nodeRing: predictCollective(node, 'all-reduce', bytes, { algorithm: 'ring' }),
    nodeBest: predictCollective(node, 'all-reduce', bytes),
    clusterRing: predictCollective(all, 'all-reduce', bytes, { algorithm: 'ring' }),
    clusterBest: predictCollective(all, 'all-reduce', bytes),
  }));
}

/** How the book names an NCCL algorithm in a table cell. */
export function algorithmLabel(p: CollectivePrediction): string {
  return { ring: 'ring', tree: 'tree', nvls: 'NVLS', 'nvls-tree': 'NVLS + tree', p2p: 'p2p' }[
    p.algorithm
  ];
}

/** Per-rank bytes sent per step by HSDP (shard over `shard` ranks, replicate over `replicas`), for Ψ elements of `bytesPer`. */
export function hsdpBytesPerRank(
  params: number,
  bytesPer: number,
  shard: number,
  replicas: number,
): { allGather: number; reduceScatter: number; allReduce: number } {
  const full = params * bytesPer;
  const allGather = 2 * ((shard - 1) / shard) * full; // forward and backward re-gather, as ZeRO-3
  const reduceScatter = ((shard - 1) / shard) * full;
  const allReduce = ((2 * (replicas - 1)) / replicas) * (full / shard); // each replica group all-reduces one shard
  return { allGather, reduceScatter, allReduce };
}

/** Probability that none of `gpus` fails during `hours`, with independent failures at `mtbfHours` per GPU. */
export function jobSurvival(gpus: number, hours: number, mtbfHours: number): number {
  return Math.exp((-gpus * hours) / mtbfHours);
}

/** Mean time between failures of the whole job: MTBF per GPU / number of GPUs. */
export function jobMtbfHours(gpus: number, mtbfHours: number): number {
  return mtbfHours / gpus;
}

/** Contiguous shard [start, end) of `length` elements that rank `r` of `world` owns (last shards may be shorter, as in FSDP's padding-free view). */
export function shardRange(
  length: number,
  world: number,
  r: number,
): { start: number; end: number } {
  const size = Math.ceil(length / world);
  return { start: Math.min(length, r * size), end: Math.min(length, (r + 1) * size) };
}

/** Which saved shards (by old rank) a new rank must read when reloading at another world size, with the overlap of each. */
export function reshardReads(
  length: number,
  oldWorld: number,
  newWorld: number,
  newRank: number,
): { from: number; start: number; end: number }[] {
  const want = shardRange(length, newWorld, newRank);
  const reads: { from: number; start: number; end: number }[] = [];
  for (let old = 0; old < oldWorld; old++) {
    const have = shardRange(length, oldWorld, old);
    const start = Math.max(want.start, have.start),
      end = Math.min(want.end, have.end);
    if (start < end) reads.push({ from: old, start, end });
  }
  return reads;
}

/** Communication of local SGD / DiLoCo relative to synchronous DP: one exchange every H inner steps. */
export function localSgdCommReduction(innerSteps: number): number {
  return innerSteps;
}

/** DiLoCo's main setting (Douillard et al. 2023): 8 workers, H = 500 inner AdamW steps, outer Nesterov momentum. */
export const DILOCO = {
  workers: 8,
  innerSteps: 500,
  innerOptimizer: 'AdamW',
  outerOptimizer: 'Nesterov momentum',
} as const;

/** Llama 3 (Dubey et al. 2024, §3.3.4 and Table 5): 419 unexpected interruptions in a 54-day snapshot on 16,384 H100 GPUs. */
export const LLAMA3_INTERRUPTIONS = {
  gpus: 16_384,
  days: 54,
  unexpected: 419,
  total: 466,
} as const;

/** Hours between unexpected interruptions in that snapshot, and the per-GPU MTBF it implies if failures are independent. */
export function llama3FailureRates(): { jobMtbfHours: number; perGpuMtbfHours: number } {
  const { gpus, days, unexpected } = LLAMA3_INTERRUPTIONS;
  const jobMtbf = (days * 24) / unexpected;
  return { jobMtbfHours: jobMtbf, perGpuMtbfHours: jobMtbf * gpus };
}
