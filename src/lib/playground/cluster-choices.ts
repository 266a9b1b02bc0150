/**
 * What a playground's cluster selector offers, computed at build time from the one preset list, so the
 * page ships the choices as HTML and no preset data as JavaScript.
 */
import {
  CLUSTER_PRESETS,
  MAX_REAL_RANKS,
  type ClusterPreset,
} from '../../../playground/simulation/index.ts';

/** The option value of the reader's own machine: real time, no cluster model. */
export const LAPTOP = 'laptop';

export interface ClusterChoice {
  id: string;
  /** Short option text: GPU, intra-node fabric, network. */
  label: string;
  description: string;
  gpusPerNode: number;
  defaultNodes: number;
}

function fabricLabel(p: ClusterPreset): string {
  const f = p.fabric;
  return f.kind === 'nvlink'
    ? `NVLink ${f.generation}${f.nvls ? ' + NVLS' : ''}`
    : `PCIe ${f.generation}.0 x${f.lanes}`;
}

export function clusterChoices(): ClusterChoice[] {
  return CLUSTER_PRESETS.map((p) => ({
    id: p.id,
    label: `${p.gpu.name}, ${fabricLabel(p)}, ${p.network.nicsPerNode.value}× ${p.network.name} per node`,
    description: p.description,
    gpusPerNode: p.gpusPerNode.value,
    defaultNodes: p.defaultNodes,
  }));
}

/** Nodes a reader may choose: any count whose world (nodes × 1 GPU) fits the real ranks. */
export const NODE_CHOICES = Array.from({ length: MAX_REAL_RANKS }, (_, i) => i + 1);
/** GPUs per node a reader may choose on the largest preset node, at most the real ranks (a 72-GPU rack offers 16). */
export const GPU_CHOICES = Array.from(
  {
    length: Math.min(MAX_REAL_RANKS, Math.max(...CLUSTER_PRESETS.map((p) => p.gpusPerNode.value))),
  },
  (_, i) => i + 1,
);

/** Checks an embed's preselected cluster, so a chapter cannot ask for a shape the selector lacks. */
export function checkEmbedCluster(id: string, nodes: number, gpusPerNode: number): void {
  const c = clusterChoices().find((p) => p.id === id);
  if (!c)
    throw new Error(
      `Playground cluster "${id}" is not a preset: ${clusterChoices()
        .map((p) => p.id)
        .join(', ')}`,
    );
  if (gpusPerNode < 1 || gpusPerNode > c.gpusPerNode)
    throw new Error(`${id} has 1 to ${c.gpusPerNode} GPUs per node, not ${gpusPerNode}`);
  if (nodes < 1 || nodes * gpusPerNode > MAX_REAL_RANKS)
    throw new Error(
      `nodes × GPUs per node must be 1 to ${MAX_REAL_RANKS}, not ${nodes * gpusPerNode}`,
    );
}
