/**
 * Cluster presets as cited data: the one place the book's hardware numbers live. Every number
 * carries the URL it was read from; bandwidths are bytes per second, one direction, unless named.
 */

/** A number and where it was published. */
export interface Cited<T = number> {
  value: T;
  source: string;
}

export interface GpuSpec {
  name: string;
  /** Dense (no 2:4 sparsity) bf16 tensor-core peak, FLOP/s. */
  bf16Flops: Cited;
  /** Non-tensor fp32 peak, FLOP/s. */
  fp32Flops: Cited;
  hbmBandwidth: Cited;
  hbmBytes: Cited;
}

/** How the GPUs of one node talk to each other. */
export type IntraNodeFabric =
  | {
      kind: 'nvlink';
      generation: number;
      linksPerGpu: Cited;
      /** Line rate of one link, one direction, bytes/s (datasheet). */
      linkBandwidth: Cited;
      /** What NCCL's topology code assumes one link delivers (src/graph/topo.h *_NVLINK_BW). */
      ncclLinkBandwidth: Cited;
      /** NVLink SHARP: the NVSwitch reduces in the fabric (NCCL's NVLS algorithm). */
      nvls: boolean;
      /** NCCL's nvlsEfficiency for this GPU generation (src/graph/tuning.cc); 0 without NVLS. */
      nvlsEfficiency: Cited;
      /** Measured µs per step of NCCL's LL protocol, where it differs from the tuner's 0.6 µs NVLink hop. */
      measuredLlHopLatencyUs?: Cited;
    }
  | {
      kind: 'pcie';
      generation: number;
      lanes: number;
      /** GT/s per lane. */
      transferRate: Cited;
      /** NCCL's model of the link: width × speed code / 80 GB/s (src/graph/topo.cc kvDictPciGen). */
      ncclBandwidth: Cited;
    };

export interface NetworkSpec {
  name: string;
  nicsPerNode: Cited;
  /** Line rate of one NIC port, one direction, bytes/s; NCCL uses the same (topo.cc: mbps / 8000). */
  nicBandwidth: Cited;
}

export interface ClusterPreset {
  id: string;
  description: string;
  gpu: GpuSpec;
  /** GPUs in one node of this system (the most the reader can choose per node). */
  gpusPerNode: Cited;
  fabric: IntraNodeFabric;
  network: NetworkSpec;
  /** Nodes the preset suggests when the reader has not chosen. */
  defaultNodes: number;
  /** What the model does not capture about this system, to say beside its numbers. */
  limitations?: string;
}

const DATASHEET = {
  a100: 'https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf',
  h100: 'https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet',
  hopperWhitepaper: 'https://resources.nvidia.com/en-us-tensor-core/gtc22-whitepaper-hopper',
  hgxB200: 'https://www.nvidia.com/en-us/data-center/hgx/',
  dgxA100:
    'https://developer.nvidia.com/blog/defining-ai-innovation-with-dgx-a100 (DGX A100 architecture)',
  basePod:
    'https://docs.nvidia.com/dgx-basepod/reference-architecture-infrastructure-foundation-enterprise-ai/latest/core-components.html',
  ada: 'https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf',
  nvlink: 'https://www.nvidia.com/en-us/data-center/nvlink/',
  pcie: 'https://pcisig.com/specifications (PCIe 3.0/4.0/5.0: 8/16/32 GT/s per lane, 128b/130b)',
  ib: 'https://www.infinibandta.org/infiniband-roadmap/ (HDR 200 Gb/s, NDR 400 Gb/s per 4x port)',
  ethernet: 'https://standards.ieee.org/ieee/802.3/ (100GBASE: 100 Gb/s)',
  ncclTopoH:
    'https://github.com/NVIDIA/nccl/blob/v2.30.7-1/src/graph/topo.h (SM80_NVLINK_BW 20.0, SM90_NVLINK_BW 20.6, SM100_NVLINK_BW 40.1 GB/s per link)',
  ncclTopoCc:
    'https://github.com/NVIDIA/nccl/blob/v2.30.7-1/src/graph/topo.cc (kvDictPciGen: "16.0 GT/s PCIe" → 120; bw = width * speed / 80.0; net bw = mbps / 8000.0)',
  h100Pcie:
    'https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet (H100 PCIe column)',
  gb200:
    'https://www.nvidia.com/en-us/data-center/gb200-nvl72/ (GB200 NVL72 specifications, 72 Blackwell GPUs)',
  awsP5: 'https://aws.amazon.com/ec2/instance-types/p5/ (p5.48xlarge: 8 H100, 3,200 Gbps EFAv2)',
  awsEfaCards:
    'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa-acc-inst-types.md ("EFA configuration for a P5 and P5e instances": a request with 32 EFA devices)',
  ncclNvlsEff:
    'https://github.com/NVIDIA/nccl/blob/v2.30.7-1/src/graph/tuning.cc (nvlsEfficiency: Ampere 0, Hopper 0.85, Blackwell 0.74)',
} as const;

const GB = 1e9;
const TFLOPS = 1e12;

export const GPUS = {
  a100: {
    name: 'A100-SXM4-80GB',
    bf16Flops: {
      value: 312 * TFLOPS,
      source: `${DATASHEET.a100} (BF16 Tensor Core 312 TFLOPS; 624 is with sparsity)`,
    },
    fp32Flops: { value: 19.5 * TFLOPS, source: `${DATASHEET.a100} (FP32 19.5 TFLOPS)` },
    hbmBandwidth: { value: 2039 * GB, source: `${DATASHEET.a100} (A100 80GB SXM: 2,039 GB/s)` },
    hbmBytes: { value: 80 * GB, source: `${DATASHEET.a100} (80GB HBM2e)` },
  },
  h100: {
    name: 'H100-SXM5-80GB',
    bf16Flops: {
      value: 989.4 * TFLOPS,
      source: `${DATASHEET.hopperWhitepaper} (H100 SXM5: Peak BF16 Tensor TFLOPS with FP32 Accumulate 989.4/1978.9, dense/sparse; the datasheet rounds the sparse figure to 1,979)`,
    },
    fp32Flops: { value: 67 * TFLOPS, source: `${DATASHEET.h100} (H100 SXM FP32 67 TFLOPS)` },
    hbmBandwidth: {
      value: 3350 * GB,
      source: `${DATASHEET.h100} (H100 SXM GPU memory bandwidth 3.35 TB/s)`,
    },
    hbmBytes: { value: 80 * GB, source: `${DATASHEET.h100} (H100 SXM 80GB)` },
  },
  b200: {
    name: 'B200 (HGX B200)',
    bf16Flops: {
      value: 2250 * TFLOPS,
      source: `${DATASHEET.hgxB200} (HGX B200, 8 GPUs: BF16 Tensor Core 36 PFLOPS with sparsity → 2.25 PFLOPS dense per GPU)`,
    },
    fp32Flops: {
      value: 75 * TFLOPS,
      source: `${DATASHEET.hgxB200} (HGX B200, 8 GPUs: FP32 600 TFLOPS → 75 per GPU)`,
    },
    hbmBandwidth: {
      value: 8000 * GB,
      source: `${DATASHEET.hgxB200} (HGX B200: 64 TB/s aggregate HBM3e bandwidth → 8 TB/s per GPU)`,
    },
    hbmBytes: {
      value: 180 * GB,
      source: `${DATASHEET.basePod} (DGX B200: "1.4TB of GPU memory space", the rounded 1,440 GB of the DGX B200 datasheet, over 8 GPUs: 180 GB each)`,
    },
  },
  h100pcie: {
    name: 'H100 PCIe 80GB',
    bf16Flops: {
      value: 756.5 * TFLOPS,
      source: `${DATASHEET.h100Pcie} (BF16 Tensor Core 1,513 TFLOPS with sparsity → 756.5 dense)`,
    },
    fp32Flops: { value: 51 * TFLOPS, source: `${DATASHEET.h100Pcie} (FP32 51 TFLOPS)` },
    hbmBandwidth: {
      value: 2000 * GB,
      source: `${DATASHEET.h100Pcie} (GPU memory bandwidth 2 TB/s)`,
    },
    hbmBytes: { value: 80 * GB, source: `${DATASHEET.h100Pcie} (80GB)` },
  },
  gb200: {
    name: 'B200 in GB200 NVL72',
    bf16Flops: {
      value: 2500 * TFLOPS,
      source: `${DATASHEET.gb200} (FP16/BF16 Tensor Core 360 PFLOPS with sparsity for 72 GPUs → 2.5 PFLOPS dense each)`,
    },
    fp32Flops: {
      value: 80 * TFLOPS,
      source: `${DATASHEET.gb200} (FP32 5,760 TFLOPS for 72 GPUs → 80 each)`,
    },
    hbmBandwidth: {
      value: 8000 * GB,
      source: `${DATASHEET.gb200} (up to 13.4 TB HBM3e at 576 TB/s for 72 GPUs → 8 TB/s each)`,
    },
    hbmBytes: {
      value: 186 * GB,
      source: `${DATASHEET.gb200} (up to 13.4 TB HBM3e for 72 GPUs → 186 GB each)`,
    },
  },
  rtx4090: {
    name: 'GeForce RTX 4090',
    bf16Flops: {
      value: 165.2 * TFLOPS,
      source: `${DATASHEET.ada} (Appendix A, RTX 4090: Peak BF16 Tensor TFLOPS with FP32 Accumulate 165.2/330.4 (sparse))`,
    },
    fp32Flops: {
      value: 82.6 * TFLOPS,
      source: `${DATASHEET.ada} (Appendix A, RTX 4090: Peak FP32 TFLOPS 82.6)`,
    },
    hbmBandwidth: {
      value: 1008 * GB,
      source: `${DATASHEET.ada} (Appendix A, RTX 4090: memory bandwidth 1008 GB/sec, GDDR6X)`,
    },
    hbmBytes: { value: 24 * GB, source: `${DATASHEET.ada} (Appendix A, RTX 4090: 24 GB GDDR6X)` },
  },
} as const satisfies Record<string, GpuSpec>;

const NVLINK_LINK_25GBS: Cited = {
  value: 25 * GB,
  source: `${DATASHEET.nvlink} (NVLink 3 and 4: 50 GB/s per link both directions, 25 GB/s each way)`,
};

const FABRICS = {
  nvlink3: {
    kind: 'nvlink',
    generation: 3,
    linksPerGpu: {
      value: 12,
      source:
        'https://devblogs.nvidia.com/introducing-hgx-a100-most-powerful-accelerated-server-platform-for-ai-hpc/ ("Each A100 GPU has 12 NVLink ports", 600 GB/s bi-directional)',
    },
    linkBandwidth: NVLINK_LINK_25GBS,
    ncclLinkBandwidth: { value: 20 * GB, source: DATASHEET.ncclTopoH },
    nvls: false,
    nvlsEfficiency: { value: 0, source: DATASHEET.ncclNvlsEff },
    measuredLlHopLatencyUs: {
      value: (33.7 - 10) / (14 - 2),
      source:
        'https://github.com/NVIDIA/nccl-tests/issues/123 (DGX-A100, NCCL_ALGO=Ring, 8 B all-reduce: "| 2 |2 | ~6| 10 | 4 |" … "|8| 14|~42|33.7| -8.3 |", so (33.7 − 10) µs over 12 more steps)',
    },
  },
  nvlink4: {
    kind: 'nvlink',
    generation: 4,
    linksPerGpu: {
      value: 18,
      source: `${DATASHEET.nvlink} (fourth-generation NVLink: 18 links, 900 GB/s per H100)`,
    },
    linkBandwidth: NVLINK_LINK_25GBS,
    ncclLinkBandwidth: { value: 20.6 * GB, source: DATASHEET.ncclTopoH },
    nvls: true,
    nvlsEfficiency: { value: 0.85, source: DATASHEET.ncclNvlsEff },
  },
  nvlink5: {
    kind: 'nvlink',
    generation: 5,
    linksPerGpu: {
      value: 18,
      source: `${DATASHEET.nvlink} (fifth-generation NVLink: 18 links, 1.8 TB/s per Blackwell GPU)`,
    },
    linkBandwidth: {
      value: 50 * GB,
      source: `${DATASHEET.nvlink} (NVLink 5: 1.8 TB/s per GPU over 18 links, so 50 GB/s per link each way)`,
    },
    ncclLinkBandwidth: { value: 40.1 * GB, source: DATASHEET.ncclTopoH },
    nvls: true,
    nvlsEfficiency: { value: 0.74, source: DATASHEET.ncclNvlsEff },
  },
  /** Two H100 PCIe cards joined by NVLink bridges: no NVSwitch, so no NVLS. */
  nvlink4Bridge: {
    kind: 'nvlink',
    generation: 4,
    linksPerGpu: {
      value: 12,
      source: `${DATASHEET.h100Pcie} (NVLink: 600 GB/s bidirectional through the bridge, 12 NVLink 4 links of 50 GB/s)`,
    },
    linkBandwidth: NVLINK_LINK_25GBS,
    ncclLinkBandwidth: { value: 20.6 * GB, source: DATASHEET.ncclTopoH },
    nvls: false,
    nvlsEfficiency: { value: 0, source: DATASHEET.ncclNvlsEff },
  },
  pcie4x16: {
    kind: 'pcie',
    generation: 4,
    lanes: 16,
    transferRate: { value: 16e9, source: DATASHEET.pcie },
    ncclBandwidth: { value: ((16 * 120) / 80) * GB, source: DATASHEET.ncclTopoCc },
  },
} as const satisfies Record<string, IntraNodeFabric>;

const gbit = (n: number) => (n * 1e9) / 8;

export const CLUSTER_PRESETS = [
  {
    id: 'a100-hdr',
    description:
      'DGX A100: 8× A100-SXM4-80GB on NVLink 3 / NVSwitch, 8× HDR InfiniBand 200 Gb/s per node',
    gpu: GPUS.a100,
    gpusPerNode: { value: 8, source: DATASHEET.dgxA100 },
    fabric: FABRICS.nvlink3,
    network: {
      name: 'HDR InfiniBand 200 Gb/s',
      nicsPerNode: {
        value: 8,
        source:
          'https://github.com/NVIDIA/nccl/issues/812#issuecomment-1491249504 (AddyLaddy, NVIDIA: "On an Nvidia DGX-A100 system we have 8x200Gbit/s IB cards")',
      },
      nicBandwidth: { value: gbit(200), source: DATASHEET.ib },
    },
    defaultNodes: 1,
  },
  {
    id: 'h100-ndr',
    description:
      'DGX H100: 8× H100-SXM5-80GB on NVLink 4 / NVSwitch with NVLink SHARP, 8× NDR InfiniBand 400 Gb/s per node',
    gpu: GPUS.h100,
    gpusPerNode: {
      value: 8,
      source: `${DATASHEET.basePod} (DGX H100: "Eight NVIDIA Hopper GPUs")`,
    },
    fabric: FABRICS.nvlink4,
    network: {
      name: 'NDR InfiniBand 400 Gb/s',
      nicsPerNode: {
        value: 8,
        source: `${DATASHEET.basePod} (DGX H100: "Four OSFP ports serving eight single-port NVIDIA ConnectX-7 VPI … up to 400 Gb/s InfiniBand/Ethernet")`,
      },
      nicBandwidth: { value: gbit(400), source: DATASHEET.ib },
    },
    defaultNodes: 1,
  },
  {
    id: 'h100-ndr-no-nvls',
    description:
      'DGX H100 with NVLink SHARP off (NCCL_NVLS_ENABLE=0): rings on NVLink, 8× NDR 400 Gb/s per node',
    gpu: GPUS.h100,
    gpusPerNode: {
      value: 8,
      source: `${DATASHEET.basePod} (DGX H100: "Eight NVIDIA Hopper GPUs")`,
    },
    fabric: { ...FABRICS.nvlink4, nvls: false },
    network: {
      name: 'NDR InfiniBand 400 Gb/s',
      nicsPerNode: {
        value: 8,
        source: `${DATASHEET.basePod} (DGX H100: "Four OSFP ports serving eight single-port NVIDIA ConnectX-7 VPI … up to 400 Gb/s InfiniBand/Ethernet")`,
      },
      nicBandwidth: { value: gbit(400), source: DATASHEET.ib },
    },
    defaultNodes: 1,
  },
  {
    id: 'b200-ndr',
    description:
      'DGX B200: 8× B200 on NVLink 5 / NVSwitch with NVLink SHARP, 8× ConnectX-7 400 Gb/s per node',
    gpu: GPUS.b200,
    gpusPerNode: {
      value: 8,
      source: `${DATASHEET.basePod} (DGX B200: "Built with eight NVIDIA B200")`,
    },
    fabric: FABRICS.nvlink5,
    network: {
      name: 'NDR InfiniBand 400 Gb/s',
      nicsPerNode: {
        value: 8,
        source: `${DATASHEET.basePod} (DGX B200: "4x OSFP ports serving 8x single-port NVIDIA ConnectX-7 VPI", "Up to 400Gb/s InfiniBand/Ethernet")`,
      },
      nicBandwidth: { value: gbit(400), source: DATASHEET.ib },
    },
    defaultNodes: 1,
  },
  {
    id: 'rtx4090-pcie',
    description:
      'Workstation: 8× GeForce RTX 4090 on PCIe 4.0 x16, no NVLink, one 100 GbE NIC per node',
    gpu: GPUS.rtx4090,
    gpusPerNode: {
      value: 8,
      source:
        'https://github.com/NVIDIA/nccl/issues/1530 (an 8× GeForce RTX 4090 PCIe server measured with nccl-tests)',
    },
    fabric: FABRICS.pcie4x16,
    network: {
      name: '100 Gb Ethernet',
      nicsPerNode: {
        value: 1,
        source:
          'one NIC per node: a typical workstation (choice of this preset, not a vendor figure)',
      },
      nicBandwidth: { value: gbit(100), source: DATASHEET.ethernet },
    },
    defaultNodes: 1,
    limitations:
      'GeForce RTX 40-series GPUs cannot access each other’s memory (no P2P), so NCCL stages data through host memory; the model prices PCIe hops with NCCL’s P2P figures, which is optimistic (nccl#1530 measured 42 µs for an 8-GPU 8 B all-reduce, the model says 21 µs).',
  },
  {
    id: 'a100-100gbe',
    description: 'Two nodes of 8× A100-SXM4-80GB on NVLink 3, joined by one 100 GbE NIC per node',
    gpu: GPUS.a100,
    gpusPerNode: { value: 8, source: DATASHEET.dgxA100 },
    fabric: FABRICS.nvlink3,
    network: {
      name: '100 Gb Ethernet',
      nicsPerNode: {
        value: 1,
        source:
          'one NIC per node shared by its 8 GPUs (choice of this preset: a cluster without rails)',
      },
      nicBandwidth: { value: gbit(100), source: DATASHEET.ethernet },
    },
    defaultNodes: 2,
    limitations:
      'Network latencies are NCCL’s generic network-hop constants (hwLatencies[NET] in tuning.cc, the same for InfiniBand and TCP sockets); real socket steps cost more, so small messages across nodes are optimistic.',
  },
  {
    id: 'a100-roce',
    description:
      'OCI BM.GPU4.8-style bare metal: 8× A100-SXM4 on NVLink 3, RoCE cluster network with 16 RDMA ports of 100 Gb/s per node',
    gpu: GPUS.a100,
    gpusPerNode: { value: 8, source: DATASHEET.dgxA100 },
    fabric: FABRICS.nvlink3,
    network: {
      name: 'RoCE 100 Gb/s × 16',
      nicsPerNode: {
        value: 16,
        source:
          'https://github.com/oracle-quickstart/oci-hpc-oke (README: "for the H100 and A100 bare metal shapes, you will see 16 VFs per node", one per RDMA port) and https://blogs.oracle.com/cloud-infrastructure/post/superclusters-rdma-high-performance ("Each GPU node has 8 NVIDIA A100 Tensor Core GPUs with a total of 1.6Tbps (1600Gbps) of full-duplex connectivity")',
      },
      nicBandwidth: { value: gbit(100), source: `${DATASHEET.ethernet} (1.6 Tb/s over 16 ports)` },
    },
    defaultNodes: 2,
    limitations:
      'RoCE latencies are NCCL’s generic network-hop constants (the tuner does not tell InfiniBand from RoCE).',
  },
  {
    id: 'aws-p5-efa',
    description:
      'AWS p5.48xlarge: 8× H100 SXM on NVLink 4 / NVSwitch, 32 EFA devices of 100 Gb/s (3,200 Gb/s) per instance',
    gpu: GPUS.h100,
    gpusPerNode: { value: 8, source: DATASHEET.awsP5 },
    fabric: FABRICS.nvlink4,
    network: {
      name: 'EFA 32 × 100 Gb/s',
      nicsPerNode: { value: 32, source: DATASHEET.awsEfaCards },
      nicBandwidth: { value: gbit(100), source: `${DATASHEET.awsP5} (3,200 Gbps over 32 devices)` },
    },
    defaultNodes: 2,
    limitations:
      'EFA runs through the aws-ofi-nccl plugin over SRD inside a virtualised instance; the model charges NCCL’s generic network-hop latencies, so small messages across instances are optimistic: on two p6-b200 instances over EFA an 8 B all-reduce took 50.6 µs against the 25.2 µs these constants give (https://github.com/dstackai/dstack/pull/3961, recorded in tests/calibration/published-sweeps.ts). Bandwidth is the published line rate.',
  },
  {
    id: 'h100-2nic',
    description: '8× H100 SXM on NVLink 4 / NVSwitch with only 2 NDR 400 Gb/s NICs per node',
    gpu: GPUS.h100,
    gpusPerNode: {
      value: 8,
      source: `${DATASHEET.basePod} (DGX H100: "Eight NVIDIA Hopper GPUs")`,
    },
    fabric: FABRICS.nvlink4,
    network: {
      name: 'NDR InfiniBand 400 Gb/s × 2',
      nicsPerNode: {
        value: 2,
        source: 'two NICs per node (choice of this preset: a node built with fewer rails)',
      },
      nicBandwidth: { value: gbit(400), source: DATASHEET.ib },
    },
    defaultNodes: 2,
  },
  {
    id: 'h100-4nic',
    description: '8× H100 SXM on NVLink 4 / NVSwitch with 4 NDR 400 Gb/s NICs per node',
    gpu: GPUS.h100,
    gpusPerNode: {
      value: 8,
      source: `${DATASHEET.basePod} (DGX H100: "Eight NVIDIA Hopper GPUs")`,
    },
    fabric: FABRICS.nvlink4,
    network: {
      name: 'NDR InfiniBand 400 Gb/s × 4',
      nicsPerNode: {
        value: 4,
        source:
          'four NICs per node, one per GPU pair (choice of this preset: half the rails of a DGX)',
      },
      nicBandwidth: { value: gbit(400), source: DATASHEET.ib },
    },
    defaultNodes: 2,
  },
  {
    id: 'h100-pcie-pair',
    description: 'Workstation: 2× H100 PCIe joined by NVLink bridges, one 100 GbE NIC',
    gpu: GPUS.h100pcie,
    gpusPerNode: {
      value: 2,
      source: `${DATASHEET.h100Pcie} (NVLink bridge connects a pair of H100 PCIe cards)`,
    },
    fabric: FABRICS.nvlink4Bridge,
    network: {
      name: '100 Gb Ethernet',
      nicsPerNode: { value: 1, source: 'one NIC per node (choice of this preset: a workstation)' },
      nicBandwidth: { value: gbit(100), source: DATASHEET.ethernet },
    },
    defaultNodes: 1,
  },
  {
    id: 'gb200-nvl72',
    description:
      'GB200 NVL72 rack: 72 Blackwell GPUs in one NVLink 5 domain (NVLink SHARP), one 400 Gb/s ConnectX-7 per GPU to other racks',
    gpu: GPUS.gb200,
    gpusPerNode: { value: 72, source: `${DATASHEET.gb200} (72 Blackwell GPUs, one NVLink domain)` },
    fabric: FABRICS.nvlink5,
    network: {
      name: 'InfiniBand 400 Gb/s, one per GPU',
      nicsPerNode: {
        value: 72,
        source:
          'one 400 Gb/s NIC per GPU as in a DGX B200 (choice of this preset; the rack is the model’s node)',
      },
      nicBandwidth: { value: gbit(400), source: DATASHEET.ib },
    },
    defaultNodes: 1,
    limitations:
      'The rack is one node of 72 GPUs: NVLS heads and NCCL’s channel count for a 72-GPU NVLink domain are extrapolated from 8-GPU nodes.',
  },
] as const satisfies readonly ClusterPreset[];

export type PresetId = (typeof CLUSTER_PRESETS)[number]['id'];
export const PRESET_IDS: readonly PresetId[] = CLUSTER_PRESETS.map((p) => p.id);

export function clusterPreset(id: string): ClusterPreset {
  const p = CLUSTER_PRESETS.find((c) => c.id === id);
  if (!p) throw new RangeError(`unknown cluster preset "${id}"; known: ${PRESET_IDS.join(', ')}`);
  return p;
}

/**
 * A preset with its network changed, for `--nics-per-node` and `--nic-gbps`: the id says what changed,
 * and the new figures cite the reader's flag.
 */
export function withNetwork(
  preset: ClusterPreset,
  change: { nicsPerNode?: number; nicGbps?: number },
): ClusterPreset {
  if (change.nicsPerNode === undefined && change.nicGbps === undefined) return preset;
  const parts: string[] = [];
  const network = { ...preset.network };
  if (change.nicsPerNode !== undefined) {
    if (!Number.isInteger(change.nicsPerNode) || change.nicsPerNode < 1)
      throw new RangeError(`NICs per node must be a whole number ≥ 1, got ${change.nicsPerNode}`);
    network.nicsPerNode = {
      value: change.nicsPerNode,
      source: 'set with --nics-per-node (choice of this preset)',
    };
    parts.push(`${change.nicsPerNode} NICs`);
  }
  if (change.nicGbps !== undefined) {
    if (!(change.nicGbps > 0) || !Number.isFinite(change.nicGbps))
      throw new RangeError(`NIC speed must be a number of Gb/s > 0, got ${change.nicGbps}`);
    network.nicBandwidth = {
      value: gbit(change.nicGbps),
      source: 'set with --nic-gbps (choice of this preset)',
    };
    parts.push(`${change.nicGbps} Gb/s`);
  }
  network.name = `${preset.network.name}, changed to ${parts.join(' × ')}`;
  return { ...preset, id: `${preset.id} (${parts.join(', ')})`, network };
}
