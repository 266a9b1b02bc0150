/** A preset laid out as nodes × GPUs per node: the topology the collective model reads. */
import { clusterPreset, type ClusterPreset } from './presets.ts';

export interface ClusterShape {
  preset: ClusterPreset;
  nodes: number;
  gpusPerNode: number;
}

/**
 * Largest world a run without a preset takes on this machine, in real time: past it, the times would be the
 * ranks' wait for a core. The page reads it (src/lib/playground/cluster-choices.ts MAX_REAL_TIME_WORLD); a
 * simulated run goes to the runtime's MAX_WORLD_SIZE (contract/protocol.ts), the model further still.
 */
export const MAX_REAL_RANKS = 16;
/** Larger worlds are for figures (thousands of GPUs), not for anything that allocates per rank. */
export const MAX_MODEL_NODES = 4096;

export function clusterShape(
  presetOrId: ClusterPreset | string,
  nodes?: number,
  gpusPerNode?: number,
): ClusterShape {
  const preset = typeof presetOrId === 'string' ? clusterPreset(presetOrId) : presetOrId;
  const n = nodes ?? preset.defaultNodes;
  const g = gpusPerNode ?? preset.gpusPerNode.value;
  if (!Number.isInteger(n) || n < 1 || n > MAX_MODEL_NODES)
    throw new RangeError(`nodes must be an integer from 1 to ${MAX_MODEL_NODES}, got ${n}`);
  if (!Number.isInteger(g) || g < 1 || g > preset.gpusPerNode.value) {
    throw new RangeError(
      `gpus per node must be an integer from 1 to ${preset.gpusPerNode.value} on ${preset.id}, got ${g}`,
    );
  }
  return { preset, nodes: n, gpusPerNode: g };
}

export const worldSize = (c: ClusterShape): number => c.nodes * c.gpusPerNode;
export const nodeOfRank = (c: ClusterShape, rank: number): number =>
  Math.floor(rank / c.gpusPerNode);

/** What NCCL's topology search assumes one GPU can push inside its node, bytes/s one way. */
export function intraNodeBandwidth(c: ClusterShape): number {
  const f = c.preset.fabric;
  return f.kind === 'nvlink'
    ? f.linksPerGpu.value * f.ncclLinkBandwidth.value
    : f.ncclBandwidth.value;
}

/** NICs the chosen GPUs of a node use: each GPU drives the NICs on its own PCIe switch (its rail). */
export function nicsInUse(c: ClusterShape): number {
  const nics = c.preset.network.nicsPerNode.value;
  const perGpu = nics / c.preset.gpusPerNode.value;
  return Math.max(1, Math.min(nics, Math.ceil(c.gpusPerNode * perGpu)));
}

/** Bytes/s one node can send to the others, one direction, all its NICs together. */
export function nodeNetworkBandwidth(c: ClusterShape): number {
  return nicsInUse(c) * c.preset.network.nicBandwidth.value;
}

export function describeShape(c: ClusterShape): string {
  return `${c.preset.id}, ${c.nodes} node${c.nodes === 1 ? '' : 's'} × ${c.gpusPerNode} GPU${c.gpusPerNode === 1 ? '' : 's'}`;
}
