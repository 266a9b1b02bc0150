/**
 * How long NCCL takes for one collective on a cluster shape: for every algorithm and protocol NCCL
 * would consider, time = latency (a base plus one hop latency per step) + bytes / algorithm
 * bandwidth, and the fastest wins, as in ncclTopoGetAlgoTime. Bandwidths come from the topology:
 * rings stay on NVLink inside a node and leave it through every NIC of the node (rails); trees
 * chain the GPUs of a node and join nodes by a double binary tree; NVLS reduces in the NVSwitch.
 */
import {
  BASE_LATENCY_US,
  HOP_LATENCY_US,
  MAX_THREADS,
  NCCL_CHANNELS,
  NVLS_CHANNELS,
  NVLS_CHUNK_OVERHEAD_BYTES,
  NVLS_CHUNK_RULE,
  NVLS_TREE_CHUNK_RULE,
  NVLS_TREE_PIPELINE_CHUNKS_PER_LEVEL,
  PER_CHANNEL_MAX_GBS,
  THREAD_THRESHOLD_BYTES,
  LL_MAX_BW_MULTI_NODE_INTEL,
  LL_MAX_BW_ONE_NODE,
  NET_OVERHEAD_US,
  PROTOCOLS,
  PROTOCOL_FACTORS,
  RING_PLATEAU_FACTOR,
  TREE_CORRECTION,
  TREE_LL128_CHUNK_RULE,
  type Protocol,
} from './nccl-constants.ts';
import {
  intraNodeBandwidth,
  nicsInUse,
  nodeNetworkBandwidth,
  worldSize,
  type ClusterShape,
} from './cluster-shape.ts';

export const COLLECTIVES = ['all-reduce', 'all-gather', 'reduce-scatter', 'broadcast'] as const;
export type Collective = (typeof COLLECTIVES)[number];
export const ALGORITHMS = ['ring', 'tree', 'nvls', 'nvls-tree'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

export interface CollectivePrediction {
  collective: Collective | 'send-recv';
  /** nccl-tests' size: the whole buffer (all-gather: the output, reduce-scatter: the input). */
  bytes: number;
  ranks: number;
  seconds: number;
  /** bytes / seconds, GB/s in nccl-tests' units (1e9 bytes/s). */
  algbw: number;
  /** algbw × nccl-tests' bus factor: 2(n−1)/n all-reduce, (n−1)/n all-gather/reduce-scatter, 1 broadcast. */
  busbw: number;
  algorithm: Algorithm | 'p2p';
  protocol: Protocol;
  latencySeconds: number;
  /** Channels (CUDA blocks) NCCL runs this size on: fewer for small buffers (enqueue.cc). */
  channels: number;
}

export interface PredictOptions {
  /** Force one algorithm, like NCCL_ALGO; throws if it cannot run this collective here. */
  algorithm?: Algorithm;
  /** Force one protocol, like NCCL_PROTO. */
  protocol?: Protocol;
}

/** nccl-tests doc/PERFORMANCE.md: busbw = algbw × this. */
export function busBandwidthFactor(collective: Collective | 'send-recv', ranks: number): number {
  if (ranks <= 1) return 0;
  if (collective === 'all-reduce') return (2 * (ranks - 1)) / ranks;
  if (collective === 'all-gather' || collective === 'reduce-scatter') return (ranks - 1) / ranks;
  return 1;
}

interface Candidate {
  algorithm: Algorithm;
  protocol: Protocol;
  latencyUs: number;
  /** Algorithm bandwidth in bytes/s, at the channels this size runs on. */
  algBandwidth: number;
  channels: number;
}

const log2i = (n: number) => Math.floor(Math.log2(n));

/** comm->nChannels: the channels NCCL builds for rings and trees on this fabric. */
export function ncclChannels(c: ClusterShape): number {
  const f = c.preset.fabric;
  if (f.kind !== 'nvlink') return NCCL_CHANNELS.pcie;
  // One GPU per node: its rings are its NICs' (the model's assumption: two channels per NIC, as
  // ncclTopoPostset doubles one ring per NIC), so the per-channel caps bind as they do in nccl-tests#232.
  if (c.gpusPerNode === 1 && c.nodes > 1) return Math.max(2, 2 * nicsInUse(c));
  return (
    ({ 3: NCCL_CHANNELS.ampere, 4: NCCL_CHANNELS.hopper, 5: NCCL_CHANNELS.blackwell } as const)[
      f.generation as 3 | 4 | 5
    ] ?? NCCL_CHANNELS.volta
  );
}

/** enqueue.cc topoGetAlgoInfo: drop a channel while bytes < channels × threads × bytes-per-thread. */
export function channelsForSize(
  c: ClusterShape,
  algorithm: 'ring' | 'tree',
  p: Protocol,
  bytes: number,
): number {
  let threshold = THREAD_THRESHOLD_BYTES[p];
  if (algorithm === 'ring' && p === 'LL') threshold *= worldSize(c);
  let nc = ncclChannels(c);
  while (nc >= 2 && bytes < nc * MAX_THREADS[p] * threshold) nc--;
  return nc;
}

/**
 * The share of the full bandwidth a size gets: NCCL's channel count made continuous (bytes over one
 * channel's threshold), so that time never falls when the buffer grows by a byte, which NCCL's integer
 * drop would allow at every step.
 */
export function channelShare(
  c: ClusterShape,
  algorithm: 'ring' | 'tree',
  p: Protocol,
  bytes: number,
): number {
  let threshold = THREAD_THRESHOLD_BYTES[p];
  if (algorithm === 'ring' && p === 'LL') threshold *= worldSize(c);
  const full = ncclChannels(c);
  return Math.max(1, Math.min(full, bytes / (MAX_THREADS[p] * threshold))) / full;
}

/** calcCollChunking's NVLS chunk for this buffer: smaller chunks below a few chunks per channel and head. */
export function nvlsChunkBytes(c: ClusterShape, bytes: number): number {
  const ops = NVLS_CHANNELS * nvlsHeads(c);
  let chunk: number = NVLS_CHUNK_RULE.maxChunk;
  for (const s of NVLS_CHUNK_RULE.steps)
    if (bytes < s.factor * ops * chunk && chunk > s.chunk) chunk = s.chunk;
  return chunk;
}

/**
 * c / (c + overhead) for the chunk NCCL uses at this size. Just under a threshold NCCL's smaller chunk
 * would make a bigger buffer faster than a smaller one; the model takes the time of the threshold
 * size instead (a flat step), so time never falls as the buffer grows.
 */
export function nvlsChunkEfficiency(c: ClusterShape, bytes: number): number {
  const eff = (b: number) => {
    const chunk = nvlsChunkBytes(c, b);
    return chunk / (chunk + NVLS_CHUNK_OVERHEAD_BYTES);
  };
  const ops = NVLS_CHANNELS * nvlsHeads(c);
  let chunk: number = NVLS_CHUNK_RULE.maxChunk;
  let next = Infinity;
  for (const s of NVLS_CHUNK_RULE.steps) {
    const edge = s.factor * ops * chunk;
    if (bytes < edge && chunk > s.chunk) {
      next = edge;
      chunk = s.chunk;
    }
  }
  if (!Number.isFinite(next)) return eff(bytes);
  // time ∝ bytes / eff: at most the time of the threshold size with its larger chunk.
  return Math.max(eff(bytes), (bytes / next) * eff(next));
}

/** calcCollChunking's NVLS-tree chunk for this buffer (multi-node only). */
export function nvlsTreeChunkBytes(c: ClusterShape, bytes: number): number {
  const ops = NVLS_CHANNELS * nvlsHeads(c);
  let chunk: number =
    c.nodes >= 4 ? NVLS_TREE_CHUNK_RULE.maxChunkFromFourNodes : NVLS_TREE_CHUNK_RULE.maxChunk;
  for (const s of NVLS_TREE_CHUNK_RULE.steps)
    if (bytes < s.factor * ops * chunk && chunk > s.chunk) chunk = s.chunk;
  return chunk;
}

/**
 * The inter-node tree's pipeline ramp for NVLS-tree: each channel and head streams k chunks through
 * a tree 2 × log2i(nNodes) levels deep (up and down), which takes about k + depth chunk-times, so
 * the share is k / (k + depth). Chunk size is NCCL's (nvlsTreeChunkBytes); the depth per level is the
 * model's one fitted cross-node constant (NVLS_TREE_PIPELINE_CHUNKS_PER_LEVEL). Time still grows with
 * the buffer: within one chunk size it is (bytes + depth × ops × chunk) / bandwidth, and at a
 * threshold the larger chunk only lengthens the fill.
 */
export function nvlsTreeRamp(c: ClusterShape, bytes: number): number {
  if (c.nodes < 2) return 1;
  const ops = NVLS_CHANNELS * nvlsHeads(c);
  // Under one chunk per channel and head a buffer still crosses every level (as in treeLl128Ramp).
  const k = Math.max(1, bytes / (ops * nvlsTreeChunkBytes(c, bytes)));
  const depth = NVLS_TREE_PIPELINE_CHUNKS_PER_LEVEL * 2 * log2i(c.nodes);
  return k / (k + depth);
}

/** NVLS heads: every GPU of a node heads a slice on one node; across nodes one head per NIC (the "NVLS Head" lines of NCCL INFO). */
const nvlsHeads = (c: ClusterShape) => (c.nodes === 1 ? c.gpusPerNode : nicsInUse(c));

function llMaxBandwidth(c: ClusterShape): number {
  if (c.nodes > 1)
    return (
      (c.nodes === 2 ? LL_MAX_BW_MULTI_NODE_INTEL.twoNodes : LL_MAX_BW_MULTI_NODE_INTEL.moreNodes) *
      1e9
    );
  const f = c.preset.fabric;
  const arch =
    f.kind === 'nvlink'
      ? (({ 3: 'ampere', 4: 'hopper', 5: 'blackwell' } as const)[f.generation as 3 | 4 | 5] ??
        'volta')
      : 'volta';
  return LL_MAX_BW_ONE_NODE[arch] * 1e9;
}

type Arch = 'volta' | 'ampere' | 'hopper' | 'blackwell';
function arch(c: ClusterShape): Arch {
  const f = c.preset.fabric;
  if (f.kind !== 'nvlink') return 'volta';
  return (
    ({ 3: 'ampere', 4: 'hopper', 5: 'blackwell' } as const)[f.generation as 3 | 4 | 5] ?? 'volta'
  );
}
/** ncclTopoTuneModel's per-channel cap for this algorithm/protocol, × the channels NCCL built, bytes/s. */
function perChannelCap(c: ClusterShape, key: keyof typeof PER_CHANNEL_MAX_GBS): number {
  const scale = c.nodes === 1 ? 0 : c.nodes === 2 ? 1 : 2;
  return PER_CHANNEL_MAX_GBS[key][arch(c)][scale]! * ncclChannels(c) * 1e9;
}

/** Hop latencies inside a node: NCCL's tuner constants, with a measured LL hop where the preset has one. */
function intraHop(c: ClusterShape): typeof HOP_LATENCY_US.nvlink {
  const f = c.preset.fabric;
  if (f.kind !== 'nvlink') return HOP_LATENCY_US.pci;
  const ll = f.measuredLlHopLatencyUs?.value;
  if (ll === undefined) return HOP_LATENCY_US.nvlink;
  const h = HOP_LATENCY_US.nvlink;
  return { ...h, ring: { ...h.ring, LL: ll }, tree: { ...h.tree, LL: ll } };
}
/** NCCL enables LL128 only where every hop inside a node is NVLink. */
const protocolAllowed = (c: ClusterShape, p: Protocol) =>
  p !== 'LL128' || c.preset.fabric.kind === 'nvlink';

/** Bus bandwidth a ring sustains (Simple): NVLink per GPU inside a node, every NIC of a node across nodes. */
export function ringBusBandwidth(c: ClusterShape): number {
  const intra = intraNodeBandwidth(c);
  return c.nodes === 1 ? intra : Math.min(intra, nodeNetworkBandwidth(c));
}

function protocolBus(c: ClusterShape, p: Protocol, bus: number): number {
  if (p === 'LL') return Math.min(llMaxBandwidth(c), bus * PROTOCOL_FACTORS.ringLL);
  if (p === 'LL128')
    return Math.min(bus * PROTOCOL_FACTORS.ringLL128, perChannelCap(c, 'ringLL128'));
  return bus;
}

function ringCandidate(
  c: ClusterShape,
  collective: Collective,
  p: Protocol,
  bytes: number,
): Candidate {
  const n = worldSize(c);
  const N = c.nodes;
  const ppn = c.gpusPerNode;
  const base = BASE_LATENCY_US.ring[p];
  const netLat = ppn === 1 ? HOP_LATENCY_US.net.tree[p] : HOP_LATENCY_US.net.ring[p];
  const channels = channelsForSize(c, 'ring', p, bytes);
  const bus = protocolBus(c, p, ringBusBandwidth(c)) * channelShare(c, 'ring', p, bytes);
  if (collective === 'broadcast') {
    // A pipelined chain: NCCL adds one hop latency when every channel follows the same ring.
    const hop = N > 1 ? HOP_LATENCY_US.net.ring[p] : intraHop(c).ring[p];
    return { algorithm: 'ring', protocol: p, latencyUs: base + hop, algBandwidth: bus, channels };
  }
  const steps = collective === 'all-reduce' ? 2 * (n - 1) : n - 1;
  const interSteps = N === 1 ? 0 : collective === 'all-reduce' ? 2 * (N - 1) : N - 1;
  const overhead = N > 1 ? NET_OVERHEAD_US * (p === 'Simple' ? 3 : 1) : 0;
  const intraLat = Math.max(intraHop(c).ring[p], overhead);
  let latencyUs = base + (steps - interSteps) * intraLat + interSteps * netLat;
  if (collective === 'all-reduce' && N > 1 && p === 'Simple') latencyUs *= RING_PLATEAU_FACTOR;
  return {
    algorithm: 'ring',
    protocol: p,
    latencyUs,
    algBandwidth: bus / busBandwidthFactor(collective, n),
    channels,
  };
}

/** calcCollChunking's tree/LL128 chunk (data bytes) for this buffer on `nc` channels, and NCCL's step count. */
export function treeLl128Chunking(
  c: ClusterShape,
  nc: number,
  bytes: number,
): { chunkBytes: number; nsteps: number } {
  const ppn = c.gpusPerNode;
  const nsteps = 1 + log2i(c.nodes) + 0.1 * ppn;
  let chunk: number = TREE_LL128_CHUNK_RULE.stepBytes;
  for (const s of TREE_LL128_CHUNK_RULE.steps)
    while (Math.floor(bytes / (nc * chunk)) < (nsteps * s.factor) / ppn && chunk > s.minChunk)
      chunk /= 2;
  return { chunkBytes: chunk * TREE_LL128_CHUNK_RULE.dataShare, nsteps };
}

/**
 * The tree's pipeline ramp with LL128: each channel streams its share of the buffer in chunks through
 * a pipeline NCCL itself counts as nstepsLL128 steps deep, so a channel that carries k chunks takes
 * about k + nsteps chunk-times instead of k (the fill and drain; a buffer smaller than one chunk per
 * channel still crosses every step). The share is k / (k + nsteps), nothing fitted: chunk and step
 * count are calcCollChunking's, the (k + nsteps) / k form is the model's.
 */
export function treeLl128Ramp(c: ClusterShape, nc: number, bytes: number): number {
  const { chunkBytes, nsteps } = treeLl128Chunking(c, nc, bytes);
  const k = Math.max(1, bytes / (nc * chunkBytes));
  return k / (k + nsteps);
}

/** NCCL's tree all-reduce: a chain inside each node, a double binary tree across nodes. */
function treeCandidate(c: ClusterShape, p: Protocol, bytes: number): Candidate {
  const N = c.nodes;
  // Each GPU of a chain sends the buffer up and down; across nodes a node sends it once (2 nodes) or twice.
  const intraAlg = c.gpusPerNode === 1 ? Infinity : intraNodeBandwidth(c) / 2;
  const interAlg =
    N === 1 ? Infinity : N === 2 ? nodeNetworkBandwidth(c) : nodeNetworkBandwidth(c) / 2;
  let bus = 2 * Math.min(intraAlg, interAlg);
  bus = Math.min(bus * PROTOCOL_FACTORS.treeAllReduce, perChannelCap(c, 'treeSimple'));
  if (p === 'LL') bus = Math.min(bus * PROTOCOL_FACTORS.treeLL, llMaxBandwidth(c));
  if (p === 'LL128')
    bus = Math.min(
      bus * (N === 1 ? PROTOCOL_FACTORS.treeLL128OneNode : PROTOCOL_FACTORS.treeLL128MultiNode),
      perChannelCap(c, 'treeLL128'),
    );
  // ncclTopoGetAlgoTime corrects tree all-reduce for 64 B ≤ size < 512 MiB (log2(size / 64) < 23).
  const logSize = bytes >= 64 ? log2i(Math.floor(bytes / 64)) : -1;
  const correction = logSize >= 0 && logSize < 23 ? TREE_CORRECTION[p][logSize]! : 1;
  const latencyUs =
    BASE_LATENCY_US.tree[p] +
    2 * ((c.gpusPerNode - 1) * intraHop(c).tree[p] + log2i(N) * HOP_LATENCY_US.net.tree[p]);
  const channels = channelsForSize(c, 'tree', p, bytes);
  const ramp = p === 'LL128' ? treeLl128Ramp(c, channels, bytes) : 1;
  return {
    algorithm: 'tree',
    protocol: p,
    latencyUs,
    algBandwidth: (bus / 2) * correction * ramp * channelShare(c, 'tree', p, bytes),
    channels,
  };
}

/** NVLink SHARP: every GPU's link carries the buffer about once each way, at NCCL's NVLS efficiency. */
function nvlsCandidate(
  c: ClusterShape,
  collective: Collective,
  bytes: number,
): Candidate | undefined {
  const f = c.preset.fabric;
  if (f.kind !== 'nvlink' || !f.nvls || c.gpusPerNode < 2 || collective === 'broadcast')
    return undefined;
  const n = worldSize(c);
  // Every chunk pays a fixed cost; NCCL cuts chunks for mid-size buffers, so NVLS ramps up with size.
  const chunkEfficiency = nvlsChunkEfficiency(c, bytes);
  const intra = intraNodeBandwidth(c) * f.nvlsEfficiency.value * chunkEfficiency;
  const channels = NVLS_CHANNELS;
  if (c.nodes === 1) {
    const alg = collective === 'all-reduce' ? intra : intra / busBandwidthFactor(collective, n);
    return {
      algorithm: 'nvls',
      protocol: 'Simple',
      latencyUs: HOP_LATENCY_US.nvlink.nvls.Simple,
      algBandwidth: alg,
      channels,
    };
  }
  // Across nodes NCCL runs NVLS inside a node and a tree between nodes, all-reduce only.
  if (collective !== 'all-reduce') return undefined;
  const inter = c.nodes === 2 ? nodeNetworkBandwidth(c) : nodeNetworkBandwidth(c) / 2;
  const latencyUs =
    HOP_LATENCY_US.nvlink.nvlsTree.Simple + 2 * log2i(c.nodes) * HOP_LATENCY_US.net.nvlsTree.Simple;
  return {
    algorithm: 'nvls-tree',
    protocol: 'Simple',
    latencyUs,
    algBandwidth: Math.min(intra, inter) * nvlsTreeRamp(c, bytes),
    channels,
  };
}

function candidates(c: ClusterShape, collective: Collective, bytes: number): Candidate[] {
  const out: Candidate[] = [];
  for (const p of PROTOCOLS) {
    if (!protocolAllowed(c, p)) continue;
    out.push(ringCandidate(c, collective, p, bytes));
    if (collective === 'all-reduce') out.push(treeCandidate(c, p, bytes));
  }
  const nvls = nvlsCandidate(c, collective, bytes);
  if (nvls) out.push(nvls);
  return out;
}

const timeUs = (k: Candidate, bytes: number) => k.latencyUs + (bytes / k.algBandwidth) * 1e6;

/**
 * The model's time for one collective of `bytes` (nccl-tests' size) over every rank of the shape.
 *
 * @example predictCollective(clusterShape('h100-ndr', 8, 8), 'all-reduce', 14e9).seconds
 */
export function predictCollective(
  c: ClusterShape,
  collective: Collective,
  bytes: number,
  opts: PredictOptions = {},
): CollectivePrediction {
  if (!(bytes >= 0) || !Number.isFinite(bytes))
    throw new RangeError(`bytes must be a finite number ≥ 0, got ${bytes}`);
  const n = worldSize(c);
  if (n === 1 || bytes === 0) {
    return {
      collective,
      bytes,
      ranks: n,
      seconds: 0,
      algbw: 0,
      busbw: 0,
      algorithm: 'ring',
      protocol: 'Simple',
      latencySeconds: 0,
      channels: 0,
    };
  }
  let pool = candidates(c, collective, bytes);
  if (opts.algorithm) pool = pool.filter((k) => k.algorithm === opts.algorithm);
  if (opts.protocol) pool = pool.filter((k) => k.protocol === opts.protocol);
  if (pool.length === 0) {
    throw new RangeError(
      `NCCL has no ${opts.algorithm ?? ''}${opts.protocol ? `/${opts.protocol}` : ''} ${collective} on ${c.preset.id} with ${c.nodes} node(s) × ${c.gpusPerNode} GPU(s)`,
    );
  }
  const best = pool.reduce((a, b) => (timeUs(b, bytes) < timeUs(a, bytes) ? b : a));
  const seconds = timeUs(best, bytes) * 1e-6;
  const algbw = bytes / seconds / 1e9;
  return {
    collective,
    bytes,
    ranks: n,
    seconds,
    algbw,
    busbw: algbw * busBandwidthFactor(collective, n),
    algorithm: best.algorithm,
    protocol: best.protocol,
    latencySeconds: best.latencyUs * 1e-6,
    channels: best.channels,
  };
}

/**
 * One send/recv between two ranks: one hop (NVLink or PCIe inside a node, one NIC across nodes),
 * charged as a single ring step. NCCL's tuner has no send/recv model; this is the book's.
 */
export function predictSendRecv(
  c: ClusterShape,
  fromRank: number,
  toRank: number,
  bytes: number,
): CollectivePrediction {
  const n = worldSize(c);
  for (const r of [fromRank, toRank])
    if (!Number.isInteger(r) || r < 0 || r >= n)
      throw new RangeError(`rank ${r} is outside a world of ${n}`);
  const sameNode = Math.floor(fromRank / c.gpusPerNode) === Math.floor(toRank / c.gpusPerNode);
  const link = sameNode ? intraNodeBandwidth(c) : c.preset.network.nicBandwidth.value;
  const hop = sameNode ? intraHop(c).ring : HOP_LATENCY_US.net.ring;
  const options = (['LL', 'Simple'] as const).map((p) => ({
    protocol: p,
    latencyUs: BASE_LATENCY_US.ring[p] + hop[p],
    bw: p === 'LL' ? link * PROTOCOL_FACTORS.ringLL : link,
  }));
  const t = (o: (typeof options)[number]) => o.latencyUs + (bytes / o.bw) * 1e6;
  const best =
    fromRank === toRank || bytes === 0
      ? undefined
      : options.reduce((a, b) => (t(b) < t(a) ? b : a));
  const seconds = best ? t(best) * 1e-6 : 0;
  const algbw = seconds > 0 ? bytes / seconds / 1e9 : 0;
  return {
    collective: 'send-recv',
    bytes,
    ranks: 2,
    seconds,
    algbw,
    busbw: algbw,
    algorithm: 'p2p',
    protocol: best?.protocol ?? 'Simple',
    latencySeconds: best ? best.latencyUs * 1e-6 : 0,
    channels: best ? 1 : 0,
  };
}
