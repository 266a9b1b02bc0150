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

/**
 * How NCCL sizes its work to the buffer (src/enqueue.cc topoGetAlgoInfo, v2.28.7-1 lines 1887–1906):
 * it starts from every channel of the communicator and drops one while
 * `nBytes < nc × nThreads × threadThreshold`, so small and mid-size buffers run on fewer channels
 * (CUDA blocks), each at one channel's share of the bandwidth.
 */
export const NCCL_ENQUEUE_SOURCE =
  'https://github.com/NVIDIA/nccl/blob/v2.28.7-1/src/enqueue.cc (topoGetAlgoInfo: "while (nBytes < nc * nt * threadThreshold) { if (nc >= 2) nc--; else break; }"; calcCollChunking: NVLS chunk sizes)';

/** src/include/comm.h: NCCL_LL_THREAD_THRESHOLD 8, NCCL_LL128_THREAD_THRESHOLD 8, NCCL_SIMPLE_THREAD_THRESHOLD 64 (bytes per thread); tuning.cc multiplies the ring/LL one by nRanks. */
export const THREAD_THRESHOLD_BYTES: PerProtocol = per(8, 8, 64);
/** Threads per channel NCCL starts from: NCCL_LL_MAX_NTHREADS 512, NCCL_LL128_MAX_NTHREADS 640, NCCL_SIMPLE_MAX_NTHREADS 512 (src/include/device.h). */
export const MAX_THREADS: PerProtocol = per(512, 640, 512);

/**
 * Channels (rings, and the trees that share them) NCCL builds inside an NVLink node, `comm->nChannels`.
 * A100: the topology search finds 12 NVSwitch rings and ncclTopoPostset doubles them to 24
 * (src/graph/connect.cc ncclTopoPostset, as read from the source, not from an A100 log). Hopper and
 * Blackwell: the model assumes NCCL's MAXCHANNELS of 32 (src/include/device.h), which 18 NVLinks fill;
 * not read from a log. PCIe: one ring, doubled. Only the size at which a buffer reaches every channel
 * depends on these.
 */
export const NCCL_CHANNELS = { volta: 12, ampere: 24, hopper: 32, blackwell: 32, pcie: 2 } as const;

/** NVLS_NCHANNELS_SM90 (src/include/nvls.h): NVLS runs 16 channels whatever the size ("NVLS should not need more than 16 channels to get peak BW", enqueue.cc). */
export const NVLS_CHANNELS = 16;

/**
 * NVLS chunk size by buffer (src/enqueue.cc calcCollChunking, NCCL_ALGO_NVLS branch, v2.28): 128 KiB,
 * cut to 64 KiB below 64 × ops × chunk, 32 KiB below 8 ×, 16 KiB below 2 ×, where ops = channels × NVLS heads.
 */
export const NVLS_CHUNK_RULE = {
  maxChunk: 131072,
  steps: [
    { factor: 64, chunk: 65536 },
    { factor: 8, chunk: 32768 },
    { factor: 2, chunk: 16384 },
  ],
} as const;

/**
 * Fixed cost of one NVLS chunk, expressed as bytes of the chunk's own transfer time (the model's one
 * fitted constant for NVLS): a chunk of c bytes runs at c / (c + this) of NCCL's NVLS bandwidth.
 * Fitted on the FIT set only (tests/calibration/published-sweeps.ts, nccl-tests#290's 4 GiB row:
 * 128 KiB chunks give 270.63 GB/s algbw of the tuner's 18 × 20.6 × 0.85 = 315.2 GB/s, so
 * 131072 × (315.2 / 270.63 − 1) ≈ 21.6 KiB).
 */
export const NVLS_CHUNK_OVERHEAD_BYTES = Math.round(131072 * (315.18 / 270.63 - 1));

/**
 * NVLS-tree chunk size by buffer (https://github.com/NVIDIA/nccl/blob/v2.26.2-1/src/enqueue.cc
 * calcCollChunking, `NCCL_ALGO_NVLS_TREE` branch; the same rule in v2.30, where the cap moved to
 * src/transport/nvls.cc): the chunk starts at nvlsChunkSize (128 KiB, NCCL_NVLS_CHUNKSIZE's default in
 * src/transport/nvls.cc), capped at 64 KiB from 4 nodes on (NCCL_NVLSTREE_MAX_CHUNKSIZE's default:
 * `comm->nNodes >= 4 ? 65536 : chunkSize`), then cut to 64 KiB below 4 × ops × chunk and to 32 KiB
 * below 1 × ops × chunk, where ops = channels × NVLS heads. (The source's 256 KiB and 128 KiB steps
 * never bind from a 128 KiB start.)
 */
export const NVLS_TREE_CHUNK_RULE = {
  maxChunk: 131072,
  maxChunkFromFourNodes: 65536,
  steps: [
    { factor: 4, chunk: 65536 },
    { factor: 1, chunk: 32768 },
  ],
} as const;

/**
 * The model's one cross-node constant for NVLS-tree: how many chunk-times the inter-node tree's
 * pipeline takes to fill and drain, per tree level each way (2 × log2i(nNodes) levels, the count
 * NCCL's tuner charges NVLS-tree latency for). A channel that carries k chunks then runs at
 * k / (k + this × 2 × log2i(nNodes)) of the NVLS-tree bandwidth. NCCL's source has no such term
 * (its tuner charges NVLS-tree a bandwidth and a latency, nothing per chunk). FITTED on the fit split
 * only: nccl-tests#309's bare-metal 2-node XE9680 sweep (NCCL 2.26.2, 8 NDR NICs per node), the value
 * with the smallest RMS log error over its 1 MiB – 1 GiB rows (flat at 0.066 from 0.7 to 0.9; 0.8
 * taken); 4 and 8 nodes are predictions (tests/calibration/published-sweeps.ts says why this split).
 */
export const NVLS_TREE_PIPELINE_CHUNKS_PER_LEVEL = 0.8;

/**
 * Tree/LL128 chunking (src/enqueue.cc calcCollChunking, v2.19–v2.28, `algorithm == NCCL_ALGO_TREE &&
 * protocol == NCCL_PROTO_LL128` branch): a chunk starts at one LL128 step, stepSize =
 * NCCL_LL128_ELEMS_PER_THREAD 120 × NCCL_LL128_MAX_NTHREADS 640 × 8 B (src/include/device.h,
 * buffSizes[LL128] / NCCL_STEPS), and is halved while
 * `nBytes / (nChannels × chunkSize) < nstepsLL128 × 64 / ppn` (down to 128 KiB) and then
 * `< nstepsLL128 × 16 / ppn` (down to 32 KiB), with `nstepsLL128 = 1 + log2i(nNodes) + 0.1 × ppn`,
 * NCCL's own count of the tree pipeline's steps. Of each 128-byte line 120 bytes are data
 * (NCCL_LL128_DATAELEMS / NCCL_LL128_LINEELEMS = 15 / 16).
 */
export const TREE_LL128_CHUNK_RULE = {
  stepBytes: 120 * 640 * 8,
  dataShare: 15 / 16,
  steps: [
    { factor: 64, minChunk: 131072 },
    { factor: 16, minChunk: 32768 },
  ],
} as const;

/**
 * Per-channel bandwidth caps of ncclTopoTuneModel, GB/s, [1 node, 2 nodes, ≥ 4 nodes] (tuning.cc
 * perChMaxRingLL128Bws, perChMaxTreeLL128Bws, perChMaxTreeBws; the same values in v2.23–v2.30):
 * busBw = min(busBw × factor, nChannels × cap).
 */
export const PER_CHANNEL_MAX_GBS = {
  ringLL128: {
    volta: [20, 20, 20],
    ampere: [20, 20, 20],
    hopper: [36.7, 36.7, 36.7],
    blackwell: [73.4, 73.4, 73.4],
  },
  treeLL128: {
    volta: [20, 20, 20],
    ampere: [20, 20, 20],
    hopper: [36.7, 36.7, 29],
    blackwell: [73.4, 73.4, 58],
  },
  treeSimple: {
    volta: [26.5, 18.5, 10],
    ampere: [24, 23.6, 17.8],
    hopper: [38.7, 41.4, 36],
    blackwell: [77.4, 82.8, 72],
  },
} as const;
