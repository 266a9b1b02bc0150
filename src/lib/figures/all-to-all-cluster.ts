/**
 * Chapter 2's all-to-all on the simulated cluster: the same buffer per rank as an all-to-all and as an
 * all-reduce, on one, two and sixteen DGX H100 nodes (playground/simulation/all-to-all-model.ts for the
 * all-to-all, the NCCL cost model for the all-reduce).
 */
import {
  predictAllToAll,
  type AllToAllPrediction,
  clusterShape,
  predictCollective,
  type CollectivePrediction,
} from '../../../playground/simulation/index.ts';

/** The NCCL release that adds ncclAlltoAll (src/collectives.cc); PyTorch's all2all_single_equal_split calls it from there on (torch/csrc/cuda/nccl.cpp: NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)). */
export const NCCL_ALLTOALL_SINCE = '2.28';

export const CHAPTER2_ALL_TO_ALL_CLUSTER = {
  preset: 'h100-ndr',
  /** 1 GiB per rank: nccl-tests' size for both collectives (each rank's buffer). */
  bytes: 2 ** 30,
  nodes: [1, 2, 16],
} as const;

export interface AllToAllClusterRow {
  nodes: number;
  ranks: number;
  allToAll: AllToAllPrediction;
  allReduce: CollectivePrediction;
  /** Share of each rank's bytes that leaves its node: (n − g)/n. */
  offNode: number;
}

export function allToAllClusterRows(
  f: { preset: string; bytes: number; nodes: readonly number[] } = CHAPTER2_ALL_TO_ALL_CLUSTER,
): AllToAllClusterRow[] {
  return f.nodes.map((nodes) => {
    const c = clusterShape(f.preset, nodes);
    const allToAll = predictAllToAll(c, f.bytes);
    return {
      nodes,
      ranks: allToAll.ranks,
      allToAll,
      allReduce: predictCollective(c, 'all-reduce', f.bytes),
      offNode: allToAll.interNodeBytesPerRank / f.bytes,
    };
  });
}
