/**
 * Published measurements the cluster model is held against. Each point names the system, the
 * exact line it comes from (quoted as published) and where; `model` says how the point is run.
 * Bandwidth points are large messages (the model must be within ±25 %), latency points are tiny
 * ones (±50 %). Points the model cannot represent yet are listed apart, with the reason.
 */
import { clusterPreset, type ClusterPreset } from '../../playground/simulation/presets.ts';
import type { Algorithm, Collective } from '../../playground/simulation/collective-model.ts';

export interface PublishedPoint {
  id: string;
  system: string;
  source: string;
  /** The line as published (tables keep their spacing collapsed). */
  quote: string;
  kind: 'bandwidth' | 'latency';
  metric: 'busbw' | 'algbw' | 'time-us';
  published: number;
  /** How `published` follows from the quote when the quote does not print it. */
  derived?: string;
  model: {
    preset: ClusterPreset;
    nodes: number;
    gpusPerNode: number;
    collective: Collective | 'send-recv';
    bytes: number;
    /** What the measurement forced with NCCL_ALGO. */
    algorithm?: Algorithm;
    /** Why this preset stands for the measured system, when it is not an exact match. */
    caveat?: string;
  };
}

const h100 = clusterPreset('h100-ndr');
const a100 = clusterPreset('a100-hdr');
const GiB = 2 ** 30;

/** DGX A100 with 4 HDR NICs per node instead of 8: the preset with its NIC count changed. */
const a100FourNics: ClusterPreset = {
  ...a100,
  id: 'a100-hdr (4 NICs per node)',
  network: {
    ...a100.network,
    nicsPerNode: {
      value: 4,
      source:
        'https://github.com/NVIDIA/nccl-tests/issues/119 ("4x Mellanox HDR Infiniband cards")',
    },
  },
};

export const PUBLISHED_POINTS: readonly PublishedPoint[] = [
  {
    id: 'h100-ring-allreduce',
    system: '8× H100 SXM, one node, NCCL_ALGO=RING',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/212 (sjeaugey, NVIDIA, 2024-05-06)',
    quote:
      '450GB/s is the line rate. With the protocol overhead (~20%) NCCL can get an effective NVLink bandwidth of 370GB/s, which you can observe as "BusBw" when running non-allreduce operations, or when running with `NCCL_ALGO=RING`.',
    kind: 'bandwidth',
    metric: 'busbw',
    published: 370,
    model: {
      preset: h100,
      nodes: 1,
      gpusPerNode: 8,
      collective: 'all-reduce',
      bytes: 8 * GiB,
      algorithm: 'ring',
    },
  },
  {
    id: 'h100-allgather',
    system: '8× H100 SXM, one node, a non-allreduce collective (all-gather)',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/212 (sjeaugey, NVIDIA, 2024-05-06)',
    quote:
      'NCCL can get an effective NVLink bandwidth of 370GB/s, which you can observe as "BusBw" when running non-allreduce operations',
    kind: 'bandwidth',
    metric: 'busbw',
    published: 370,
    model: { preset: h100, nodes: 1, gpusPerNode: 8, collective: 'all-gather', bytes: 8 * GiB },
  },
  {
    id: 'h100-nvls-busbw',
    system: '8× H100 SXM, one node, default algorithm (NVLink SHARP)',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/212 (sjeaugey, NVIDIA, 2024-05-06)',
    quote:
      'On 8 GPUs, you should reach a peak busBw of ~480GB/s (algbw ~275GB/s). You need to run on larger sizes though; 256M is too small to reach peak bandwidth.',
    kind: 'bandwidth',
    metric: 'busbw',
    published: 480,
    model: { preset: h100, nodes: 1, gpusPerNode: 8, collective: 'all-reduce', bytes: 8 * GiB },
  },
  {
    id: 'h100-nvls-algbw',
    system: '8× H100 SXM, one node, default algorithm (NVLink SHARP)',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/212 (sjeaugey, NVIDIA, 2024-05-06)',
    quote: 'On 8 GPUs, you should reach a peak busBw of ~480GB/s (algbw ~275GB/s).',
    kind: 'bandwidth',
    metric: 'algbw',
    published: 275,
    model: { preset: h100, nodes: 1, gpusPerNode: 8, collective: 'all-reduce', bytes: 8 * GiB },
  },
  {
    id: 'h100-nvls-476',
    system: '8× H100, one node, default algorithm',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/290 (AddyLaddy, NVIDIA, 2025-03-03)',
    quote:
      'The single node run above will be using NVLink and NVLink SHARP to accelerate AllReduce and 476GB/s looks to be in the expected range for H100.',
    kind: 'bandwidth',
    metric: 'busbw',
    published: 476,
    model: { preset: h100, nodes: 1, gpusPerNode: 8, collective: 'all-reduce', bytes: 8 * GiB },
  },
  {
    id: 'h200-nvls',
    system: '8× H200 on NVLink 4, one node, NCCL 2.20.3',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/272 (vitduck, 2024-11-27)',
    quote: 'The output shows peak bandwidth of 475 GB/s',
    kind: 'bandwidth',
    metric: 'busbw',
    published: 475,
    model: {
      preset: h100,
      nodes: 1,
      gpusPerNode: 8,
      collective: 'all-reduce',
      bytes: 4 * GiB,
      caveat:
        'H200 has the H100’s NVLink 4 / NVSwitch fabric; collectives do not depend on the GPU’s FLOP/s or HBM',
    },
  },
  {
    id: 'a100-one-node',
    system: '8× A100, one node',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/175 (lcw2, 2023-10-29)',
    quote: '2. singleNode, ./build/all_reduce_perf -b 8 -e 4G -f 2 -g 8, result: 232.54GB/s',
    kind: 'bandwidth',
    metric: 'busbw',
    published: 232.54,
    model: { preset: a100, nodes: 1, gpusPerNode: 8, collective: 'all-reduce', bytes: 4 * GiB },
  },
  {
    id: 'a100-multinode-8hdr',
    system: 'DGX A100 nodes with 8× HDR 200 Gb/s, ring across nodes',
    source:
      'https://github.com/NVIDIA/nccl/issues/812#issuecomment-1491249504 (AddyLaddy, NVIDIA; quoted in NVIDIA/nccl#1576)',
    quote:
      'On an Nvidia DGX-A100 system we have 8x200Gbit/s IB cards and we measure 192GB/s AllReduce BusBW.',
    kind: 'bandwidth',
    metric: 'busbw',
    published: 192,
    model: {
      preset: a100,
      nodes: 2,
      gpusPerNode: 8,
      collective: 'all-reduce',
      bytes: 8 * GiB,
      algorithm: 'ring',
      caveat:
        'node count not stated; a ring’s busbw does not depend on it, so run on 2 nodes with NCCL_ALGO=RING as the thread compares Ring',
    },
  },
  {
    id: 'a100-3nodes-4hdr',
    system: '3 nodes of 8× A100-SXM4-40GB with 4× HDR 200 Gb/s each, up to 128 MB',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/119 (Yujaeseo, 2022-11-17)',
    quote:
      'I think the theoretical performance is 100GB/s (200G x 4 / 8) and the test result shows the average performance is about 84.8GB/s and peak performance reaches about 96GB/s.',
    kind: 'bandwidth',
    metric: 'busbw',
    published: 96,
    model: {
      preset: a100FourNics,
      nodes: 3,
      gpusPerNode: 8,
      collective: 'all-reduce',
      bytes: 128 * 2 ** 20,
      caveat:
        'A100-SXM4-40GB has the same NVLink 3 fabric as the preset’s 80GB part; the largest size run (-e 128M) stands for the peak',
    },
  },
  {
    id: 'h100-2nodes-tree-1gpu',
    system: '2 nodes × 1 H100, NCCL_ALGO=Tree, 4 NICs listed in NCCL_IB_HCA',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/232 (ProHuper, 2024)',
    quote:
      '2 nodes allreduce test，1 H100 each node，using 4 nics，busbw is 50，theoretical busbw should be 200。',
    kind: 'bandwidth',
    metric: 'busbw',
    published: 50,
    model: {
      preset: h100,
      nodes: 2,
      gpusPerNode: 1,
      collective: 'all-reduce',
      bytes: 16 * GiB,
      algorithm: 'tree',
      caveat:
        'the model lets one GPU drive only the NIC on its own PCIe switch, which is what the measurement shows',
    },
  },
  {
    id: 'ndr-nic-p2p',
    system: 'one ConnectX-7 NIC at NDR 400 Gb/s between two nodes',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/267 (AddyLaddy, NVIDIA, 2025-01-23)',
    quote: 'CX-7 NICs at NDR rate (400Gbps) should achieve up to 48-49GB/s per NIC.',
    kind: 'bandwidth',
    metric: 'algbw',
    published: 48.5,
    derived: 'the middle of 48–49 GB/s',
    model: { preset: h100, nodes: 2, gpusPerNode: 8, collective: 'send-recv', bytes: 1 * GiB },
  },
  {
    id: 'h100-2nodes-ring',
    system: '2 nodes of 8× H100 with 8× NDR 400 Gb/s, NCCL_ALGO=RING',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/290 (AddyLaddy, NVIDIA, 2025-03-03)',
    quote:
      'Running on two nodes (over IB/RoCE) is more complex and we suggest passing NCCL_ALGO=RING when benchmarking just two nodes to examine the HCA/Network performance. … For NDR @ 400Gbps you should see 46-48GB/s per NIC.',
    kind: 'bandwidth',
    metric: 'busbw',
    published: 8 * 47,
    derived:
      'published per NIC; a ring across nodes drives all 8 NICs of a node, so 8 × 47 GB/s (the middle of 46–48)',
    model: {
      preset: h100,
      nodes: 2,
      gpusPerNode: 8,
      collective: 'all-reduce',
      bytes: 8 * GiB,
      algorithm: 'ring',
    },
  },
  {
    id: 'a100-2gpu-latency',
    system: '2× A100-SXM4-40GB, one node, 32 B all-reduce',
    source: 'https://github.com/NVIDIA/nccl/issues/583 (elevenxiang, 2021-10-18)',
    quote: '32 8 float sum 10.14 0.00 0.00 0e+00 10.21 0.00 0.00 0e+00',
    kind: 'latency',
    metric: 'time-us',
    published: 10.14,
    model: { preset: a100, nodes: 1, gpusPerNode: 2, collective: 'all-reduce', bytes: 32 },
  },
  {
    id: 'a100-2nodes-ring-latency',
    system: '2 DGX A100 (16 GPUs), NCCL 2.16.5, NCCL_ALGO=Ring, 8 B all-reduce',
    source: 'https://github.com/NVIDIA/nccl/issues/812 (elevenxiang, 2023-03-30)',
    quote: '8 2 float sum -1 93.12 0.00 0.00 0 92.93 0.00 0.00 0',
    kind: 'latency',
    metric: 'time-us',
    published: 93.12,
    model: {
      preset: a100,
      nodes: 2,
      gpusPerNode: 8,
      collective: 'all-reduce',
      bytes: 8,
      algorithm: 'ring',
      caveat: 'a DGX A100 has 8 GPUs and 8 HDR NICs',
    },
  },
  {
    id: 'h20-2nodes-nvlstree-latency',
    system:
      '2 nodes × 8 H20 (NVLink 4), 16 CX-7 NDR NICs, NCCL 2.21.5, NCCL_ALGO=NVLSTree, 4 B all-reduce',
    source: 'https://github.com/NVIDIA/nccl/issues/1244 (haswelliris, 2024-04-09)',
    quote: '4 1 float sum 47.54 0.00 0.00 0e+00 49.35 0.00 0.00 4e-07',
    kind: 'latency',
    metric: 'time-us',
    published: 47.54,
    model: {
      preset: h100,
      nodes: 2,
      gpusPerNode: 8,
      collective: 'all-reduce',
      bytes: 4,
      algorithm: 'nvls-tree',
      caveat: 'H20 has the H100’s NVLink 4 / NVSwitch fabric and the same NICs',
    },
  },
];

/** The points the measured A100 LL hop latency was read from: they check the fit, not the model. */
export const FITTED_POINTS: readonly PublishedPoint[] = [
  {
    id: 'a100-8gpu-ring-latency (fit)',
    system: 'DGX A100, 8 GPUs, NCCL_ALGO=Ring NCCL_MAX_NCHANNELS=1, 8 B all-reduce',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/123 (ConnollyLeon, 2022-12-14)',
    quote: '|8| 14|~42|33.7| -8.3 |',
    kind: 'latency',
    metric: 'time-us',
    published: 33.7,
    model: {
      preset: a100,
      nodes: 1,
      gpusPerNode: 8,
      collective: 'all-reduce',
      bytes: 8,
      algorithm: 'ring',
    },
  },
];

/** Published figures the model cannot represent yet, and why. */
export const UNMODELLED_POINTS: readonly {
  id: string;
  source: string;
  quote: string;
  reason: string;
}[] = [
  {
    id: 'rtx4090-pcie-latency',
    source: 'https://github.com/NVIDIA/nccl/issues/1530 (guyan364, 8× GeForce RTX 4090)',
    quote: '8 2 float sum -1 42.14 0.00 0.00 0 40.06',
    reason:
      'GeForce RTX 40-series GPUs have no peer-to-peer access, so NCCL moves data through host memory (its SHM transport); the model has no constants for that path and prices PCIe hops with NCCL’s P2P figures (it predicts 20.6 µs).',
  },
  {
    id: 'h100-nvls-cuda-graph-latency',
    source:
      'https://github.com/NVIDIA/nccl/issues/1259 (dchen496, NCCL 2.20.5, 2 H100, NCCL_ALGO=NVLSTree, -G 10)',
    quote: 'When I run with 2 GPUs the latency is approximately 6us',
    reason:
      'Measured inside a CUDA graph (nccl-tests -G), which removes launch costs; the model charges eagerly launched collectives and NCCL’s 25 µs NVLS hop constant.',
  },
  {
    id: 'h800-nvls',
    source: 'https://github.com/NVIDIA/nccl/issues/1374 (yupatrick22, 8× H800)',
    quote:
      'I have also conducted a test on H800 * 8 node, and the reported allreduce budBW is 215 GB/s, which is bigger than unidirectional peak BW 200GB/s',
    reason:
      'No preset has the H800’s reduced NVLink (8 links); adding one needs a cited H800 datasheet figure.',
  },
  {
    id: 'a100-2nodes-4x200g-dualport',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/175 (lcw2)',
    quote:
      '3. nccl all-reduce between two nodes  only 86GB/s。There is a big gap compared to the theoretical value(100 GB/s), why is this?',
    reason:
      'The NICs are dual-port and the maintainer could not tell whether the peak is 100 or 200 GB/s ("It\'s still not clear to me whether the peak theoretical is 100GB/s or 200GB/s"), so the system is not known well enough to model.',
  },
  {
    id: 'ddp-throughput',
    source:
      'https://arxiv.org/abs/2006.15704 (Li et al., PyTorch Distributed, VLDB 2020) and the ZeRO / FSDP papers',
    quote: '(per-iteration latency and throughput figures of ResNet50 and BERT on V100 clusters)',
    reason:
      'Step-time figures need a compute model of the benchmark networks on V100 GPUs; the model has no V100 preset, and the runtime charges only the kernels a playground runs (ResNet50 and BERT are not among them).',
  },
];
