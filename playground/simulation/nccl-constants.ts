/**
 * NCCL's own cost-model constants, copied from one pinned version of src/graph/tuning.cc so the
 * model can say exactly which NCCL it imitates. Latencies in microseconds, per protocol.
 */

export const NCCL_VERSION = '2.30.7';
export const NCCL_TUNING_SOURCE =
  'https://github.com/NVIDIA/nccl/blob/v2.30.7-1/src/graph/tuning.cc';

export const PROTOCOLS = ['LL', 'LL128', 'Simple'] as const;
export type Protocol = (typeof PROTOCOLS)[number];
export type PerProtocol = Readonly<Record<Protocol, number>>;

const per = (LL: number, LL128: number, Simple: number): PerProtocol => ({ LL, LL128, Simple });

/** ncclTunerConstantsDefaults.baseLatencies: paid once per collective. */
export const BASE_LATENCY_US = {
  tree: per(6.8, 14.0, 8.4),
  ring: per(6.6, 14.0, 8.4),
  nvls: per(0, 0, 0),
  nvlsTree: per(0, 0, 0),
} as const;

/** ncclTunerConstantsDefaults.hwLatencies: paid per step, by the kind of hop. */
export const HOP_LATENCY_US = {
  nvlink: {
    tree: per(0.6, 1.25, 4.0),
    ring: per(0.6, 1.9, 3.4),
    nvls: per(0, 0, 25),
    nvlsTree: per(0, 0, 25),
  },
  pci: {
    tree: per(1.0, 1.9, 4.0),
    ring: per(1.0, 2.5, 5.7),
    nvls: per(0, 0, 0),
    nvlsTree: per(0, 0, 0),
  },
  net: {
    tree: per(5.0, 8.5, 14),
    ring: per(2.7, 4.0, 14.0),
    nvls: per(0, 0, 18),
    nvlsTree: per(0, 0, 20.9),
  },
} as const;

/**
 * The network hop of a ring step with the Simple protocol (hwLatencies[NET][Ring][Simple]) across
 * NCCL releases, read from the tags of NVIDIA/nccl: the book's old 9.6 µs is the 2.14–2.17 value.
 */
export const RING_NET_SIMPLE_HOP_HISTORY_US = [
  { versions: '2.8–2.11', value: 9.6 },
  { versions: '2.12–2.13', value: 28 },
  { versions: '2.14–2.17', value: 9.6 },
  { versions: '2.18–2.30', value: 14.0 },
] as const;

/** llMaxBws (GB/s): [Volta, Ampere, Hopper, Blackwell] on one node; [Intel, AMD] CPUs × [2, ≥4] nodes. */
export const LL_MAX_BW_ONE_NODE = {
  volta: 39.0,
  ampere: 87.7,
  hopper: 141.0,
  blackwell: 282.0,
} as const;
export const LL_MAX_BW_MULTI_NODE_INTEL = { twoNodes: 39.0, moreNodes: 20.4 } as const;

/** Bandwidth refinements of ncclTopoTuneModel. */
export const PROTOCOL_FACTORS = {
  ringLL: 0.5,
  ringLL128: 0.92,
  treeAllReduce: 0.92,
  treeLL: 1 / 3.8,
  treeLL128OneNode: 7 / 9,
  treeLL128MultiNode: 120 / 128,
} as const;

/** getNetOverhead on an Intel x86 host: µs per network step, ×3 with Simple. */
export const NET_OVERHEAD_US = 1.0;
/** ncclTopoGetAlgoTime: multi-node ring/Simple all-reduce latency ×1.4 on sm80+ ("plateau effect of ring"). */
export const RING_PLATEAU_FACTOR = 1.4;

/** treeCorrectionFactor[protocol][log2(bytes / 64)], 64 B … 256 MiB; 1 outside the table. */
export const TREE_CORRECTION: Readonly<Record<Protocol, readonly number[]>> = {
  LL: [
    1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9,
    1.0, 1.0, 1.0, 1.0, 1.0,
  ],
  LL128: [
    1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9, 0.9,
    0.9, 0.9, 1.0, 1.0, 1.0,
  ],
  Simple: [
    0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.7,
    0.7, 0.8, 0.9, 0.9, 0.9,
  ],
};
