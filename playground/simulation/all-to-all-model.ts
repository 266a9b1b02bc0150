/**
 * How long an all-to-all takes on a cluster shape, reasoned as NCCL runs it: nccl-tests' src/alltoall.cu
 * (AlltoAllRunColl) and PyTorch's all2all_single_equal_split before NCCL 2.28 (torch/csrc/cuda/nccl.cpp)
 * post one ncclSend and one ncclRecv per peer inside one ncclGroupStart/ncclGroupEnd; NCCL 2.28 adds
 * ncclAlltoAll (src/collectives.cc), which PyTorch calls when built against it. NCCL's tuner
 * (ncclTopoGetAlgoTime) has no model for this, so the time below is the book's:
 *
 * - each rank sends (n−1)/n of its buffer D, one D/n piece per peer; (g−1)/n of D goes to the g−1 peers
 *   in its node over NVLink (or PCIe), (n−g)/n of D to the other nodes through the node's NICs;
 * - the NVLink and the NIC traffic go to different peers at once, so the bandwidth term is the slower
 *   of the two: intra bytes / one GPU's intra-node bandwidth, or the node's g·(n−g)/n·D / all its NICs;
 * - every peer costs one point-to-point latency (a ring step's hop: NVLink or network), counted one
 *   after another, which overstates it where NCCL overlaps peers on several channels.
 *
 * The bus-bandwidth factor is nccl-tests' for alltoall, (n−1)/n (alltoall.cu, AlltoAllGetBw).
 */
import {
  BASE_LATENCY_US,
  HOP_LATENCY_US,
  PROTOCOL_FACTORS,
  type Protocol,
} from './nccl-constants.ts';
import {
  intraNodeBandwidth,
  nodeNetworkBandwidth,
  worldSize,
  type ClusterShape,
} from './cluster-shape.ts';

export interface AllToAllPrediction {
  /** nccl-tests' size for alltoall: each rank's whole send buffer, D. */
  bytes: number;
  ranks: number;
  seconds: number;
  /** bytes / seconds, GB/s (1e9 bytes/s). */
  algbw: number;
  /** algbw × (n−1)/n, nccl-tests' alltoall bus bandwidth. */
  busbw: number;
  protocol: Protocol;
  latencySeconds: number;
  /** Bytes each rank sends to the GPUs of its own node, and to other nodes. */
  intraNodeBytesPerRank: number;
  interNodeBytesPerRank: number;
  /** Which link sets the bandwidth term. */
  bottleneck: 'intra-node' | 'network' | 'none';
}

/** nccl-tests src/alltoall.cu, AlltoAllGetBw: busbw = algbw × (n−1)/n. */
export const allToAllBusFactor = (ranks: number): number => (ranks <= 1 ? 0 : (ranks - 1) / ranks);

/** The hop of one point-to-point step inside a node, as collective-model.ts charges a ring step there. */
function intraHop(c: ClusterShape): Readonly<Record<Protocol, number>> {
  const f = c.preset.fabric;
  if (f.kind !== 'nvlink') return HOP_LATENCY_US.pci.ring;
  const ll = f.measuredLlHopLatencyUs?.value;
  return ll === undefined ? HOP_LATENCY_US.nvlink.ring : { ...HOP_LATENCY_US.nvlink.ring, LL: ll };
}

/**
 * The model's time for an all-to-all of `bytes` per rank (nccl-tests' size) over every rank of the shape.
 *
 * @example predictAllToAll(clusterShape('h100-ndr', 2), 2 ** 30).seconds
 */
export function predictAllToAll(c: ClusterShape, bytes: number): AllToAllPrediction {
  if (!(bytes >= 0) || !Number.isFinite(bytes))
    throw new RangeError(`bytes must be a finite number ≥ 0, got ${bytes}`);
  const n = worldSize(c);
  const g = c.gpusPerNode;
  const intraBytes = ((g - 1) / n) * bytes;
  const interBytes = ((n - g) / n) * bytes;
  const none = {
    bytes,
    ranks: n,
    seconds: 0,
    algbw: 0,
    busbw: 0,
    protocol: 'Simple' as Protocol,
    latencySeconds: 0,
    intraNodeBytesPerRank: intraBytes,
    interNodeBytesPerRank: interBytes,
    bottleneck: 'none' as const,
  };
  if (n === 1 || bytes === 0) return none;
  // A node's g GPUs each send interBytes through the node's NICs together.
  const intraSeconds = intraBytes / intraNodeBandwidth(c);
  const netSeconds = (g * interBytes) / nodeNetworkBandwidth(c);
  const options = (['LL', 'Simple'] as const).map((p) => {
    const slowdown = p === 'LL' ? PROTOCOL_FACTORS.ringLL : 1;
    const latencyUs =
      BASE_LATENCY_US.ring[p] + (g - 1) * intraHop(c)[p] + (n - g) * HOP_LATENCY_US.net.ring[p];
    return {
      protocol: p,
      latencyUs,
      seconds: latencyUs * 1e-6 + Math.max(intraSeconds, netSeconds) / slowdown,
    };
  });
  const best = options.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const algbw = bytes / best.seconds / 1e9;
  return {
    ...none,
    seconds: best.seconds,
    algbw,
    busbw: algbw * allToAllBusFactor(n),
    protocol: best.protocol,
    latencySeconds: best.latencyUs * 1e-6,
    bottleneck: netSeconds > intraSeconds ? 'network' : 'intra-node',
  };
}
