/**
 * One link as chapter 2's α–β model sees it: β from a link of the cluster presets (the one preset
 * list, playground/simulation/presets.ts), α from NCCL's per-step ring latency (Simple protocol,
 * src/graph/tuning.cc hwLatencies) in the NCCL version the cluster model cites.
 */
import {
  clusterPreset,
  HOP_LATENCY_US,
  NCCL_TUNING_SOURCE,
  NCCL_VERSION,
  RING_NET_SIMPLE_HOP_HISTORY_US,
} from '../../../playground/simulation/index.ts';

export type LinkId = 'nvlink' | 'pcie' | 'infiniband' | 'ethernet';

export interface LinkPreset {
  id: LinkId;
  label: string;
  /** Bytes per second, one direction, per GPU. */
  bandwidth: number;
  /** Seconds per ring step. */
  alpha: number;
  /** Where the bandwidth figure is published, and the NCCL version α comes from. */
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

/** The NCCL this book's latencies come from, and where its constants are read. */
export const NCCL_LATENCY_SOURCE = { version: NCCL_VERSION, url: NCCL_TUNING_SOURCE } as const;
/** NCCL's ring network hop (Simple) across releases: 9.6 µs in 2.8–2.11 and 2.14–2.17, 14 µs since 2.18. */
export const NET_HOP_HISTORY = RING_NET_SIMPLE_HOP_HISTORY_US;

const ringSimpleAlpha = (hop: 'nvlink' | 'pci' | 'net') => HOP_LATENCY_US[hop].ring.Simple * 1e-6;
const ncclAlpha = `α: NCCL ${NCCL_VERSION} ring/Simple latency per step (${NCCL_TUNING_SOURCE}, hwLatencies)`;

const h100 = clusterPreset('h100-ndr');
const pcieNode = clusterPreset('rtx4090-pcie');
const ethernetNodes = clusterPreset('a100-100gbe');
const nvlinkOf = (f: typeof h100.fabric) => {
  if (f.kind !== 'nvlink') throw new TypeError(`${h100.id} has no NVLink`);
  return f;
};
const pcieOf = (f: typeof pcieNode.fabric) => {
  if (f.kind !== 'pcie') throw new TypeError(`${pcieNode.id} is not a PCIe node`);
  return f;
};
const nvlink = nvlinkOf(h100.fabric);
const pcie = pcieOf(pcieNode.fabric);

export const LINK_PRESETS: readonly LinkPreset[] = [
  {
    id: 'nvlink',
    label: `NVLink ${nvlink.generation} (${h100.gpu.name})`,
    bandwidth: nvlink.linksPerGpu.value * nvlink.linkBandwidth.value,
    alpha: ringSimpleAlpha('nvlink'),
    source: `${nvlink.linksPerGpu.value} links × line rate: ${nvlink.linkBandwidth.source}. ${ncclAlpha}.`,
  },
  {
    id: 'pcie',
    label: `PCIe ${pcie.generation}.0 x${pcie.lanes}`,
    bandwidth: pcieBandwidth(pcie.transferRate.value / 1e9, pcie.lanes),
    alpha: ringSimpleAlpha('pci'),
    source: `${pcie.transferRate.source}: ${pcie.transferRate.value / 1e9} GT/s × ${pcie.lanes} lanes × 128/130. ${ncclAlpha}.`,
  },
  {
    id: 'infiniband',
    label: h100.network.name,
    bandwidth: h100.network.nicBandwidth.value,
    alpha: ringSimpleAlpha('net'),
    source: `${h100.network.nicBandwidth.source}. ${ncclAlpha}.`,
  },
  {
    id: 'ethernet',
    label: ethernetNodes.network.name,
    bandwidth: ethernetNodes.network.nicBandwidth.value,
    alpha: ringSimpleAlpha('net'),
    source: `${ethernetNodes.network.nicBandwidth.source}. ${ncclAlpha}; TCP sockets add more.`,
  },
];

export function linkPreset(id: LinkId): LinkPreset {
  const p = LINK_PRESETS.find((l) => l.id === id);
  if (!p) throw new RangeError(`unknown link ${id}`);
  return p;
}
