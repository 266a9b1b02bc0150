/**
 * Interconnect presets for the α–β model: β from the link's published per-direction bandwidth,
 * α from NCCL's own cost model (per ring step, Simple protocol, src/graph/tuning.cc `hwLat`).
 */

export type LinkId = 'nvlink' | 'pcie' | 'infiniband' | 'ethernet';

export interface LinkPreset {
  id: LinkId;
  label: string;
  /** Bytes per second, one direction, per GPU. */
  bandwidth: number;
  /** Seconds per ring step. */
  alpha: number;
  /** How the bandwidth figure is derived, and where it is published. */
  source: string;
}

/** PCIe x16 one-direction payload rate: lanes × transfer rate × 128b/130b line coding. */
export function pcieBandwidth(gtPerSecond: number, lanes = 16): number {
  return (lanes * gtPerSecond * 1e9 * (128 / 130)) / 8;
}

/** A network port rated in Gbit/s carries that many bits per second each way. */
export function gbitToBytes(gbit: number): number {
  return (gbit * 1e9) / 8;
}

// NCCL's hwLat for the ring / Simple protocol, µs per step: NVLink 3.4, PCI 5.7, network 9.6.
const NCCL_RING_STEP_LATENCY_US = { nvlink: 3.4, pci: 5.7, net: 9.6 } as const;

export const LINK_PRESETS: readonly LinkPreset[] = [
  {
    id: 'nvlink',
    label: 'NVLink 4 (H100 SXM)',
    bandwidth: 900e9 / 2,
    alpha: NCCL_RING_STEP_LATENCY_US.nvlink * 1e-6,
    source:
      'NVIDIA H100 datasheet: 900 GB/s NVLink per GPU, counted in both directions, so 450 GB/s each way.',
  },
  {
    id: 'pcie',
    label: 'PCIe 4.0 x16',
    bandwidth: pcieBandwidth(16),
    alpha: NCCL_RING_STEP_LATENCY_US.pci * 1e-6,
    source:
      'PCI-SIG PCIe 4.0: 16 GT/s per lane, 128b/130b encoding, 16 lanes ≈ 31.5 GB/s each way.',
  },
  {
    id: 'infiniband',
    label: 'InfiniBand NDR 400 Gb/s',
    bandwidth: gbitToBytes(400),
    alpha: NCCL_RING_STEP_LATENCY_US.net * 1e-6,
    source:
      'InfiniBand Trade Association NDR: 400 Gb/s per port = 50 GB/s each way (one NIC per GPU, as in a DGX H100).',
  },
  {
    id: 'ethernet',
    label: 'Ethernet 100 GbE',
    bandwidth: gbitToBytes(100),
    alpha: NCCL_RING_STEP_LATENCY_US.net * 1e-6,
    source:
      'IEEE 802.3 100 Gb/s Ethernet = 12.5 GB/s each way; α is NCCL’s network figure, a lower bound for TCP.',
  },
];

export function linkPreset(id: LinkId): LinkPreset {
  const p = LINK_PRESETS.find((l) => l.id === id);
  if (!p) throw new RangeError(`unknown link ${id}`);
  return p;
}
