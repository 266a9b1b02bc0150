/**
 * What a playground's cluster selector offers, computed at build time from the one preset list, so the
 * page ships the choices as HTML and no preset data as JavaScript.
 */
import {
  CLUSTER_PRESETS,
  MAX_REAL_RANKS,
  type ClusterPreset,
} from '../../../playground/simulation/index.ts';
import { MAX_WORLD_SIZE } from '../../../playground/contract/protocol.ts';

/**
 * Largest world the page starts in real time (this laptop, no preset): the ranks share this machine's cores,
 * so a larger world would time the ranks' wait for a core, not the program.
 */
export const MAX_REAL_TIME_WORLD = MAX_REAL_RANKS;
/**
 * Largest world on a simulated cluster: the runtime's limit (logical ranks share the workers, and the times
 * are virtual, so the wait for a core never shows in them).
 */
export const MAX_SIMULATED_WORLD = MAX_WORLD_SIZE;

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

/** What the laptop choice says: why its worlds stop at MAX_REAL_TIME_WORLD while a preset goes on. */
export const realTimeNote = `Times are real: the ranks share this computer’s cores, so this laptop runs at most ${MAX_REAL_TIME_WORLD} ranks (a larger world would time the ranks’ wait for a core, not the program). A simulated cluster runs up to ${MAX_SIMULATED_WORLD.toLocaleString('en')} ranks in virtual time.`;

/** 1 to 16 one by one, then doubling up to `max`: every small shape, and the powers of two large clusters come in. */
function counts(max: number): number[] {
  const out: number[] = [];
  for (let n = 1; n <= max; n = n < 16 ? n + 1 : n * 2) out.push(n);
  return out;
}

/** Nodes a reader may choose: any count whose world (nodes × 1 GPU) fits the simulated-world limit. */
export const NODE_CHOICES = counts(MAX_SIMULATED_WORLD);
/** GPUs per node a reader may choose: the small counts, the doubling ones and every preset's own node size (72 on the NVL72 rack). */
export const GPU_CHOICES = [
  ...new Set([
    ...counts(Math.max(...CLUSTER_PRESETS.map((p) => p.gpusPerNode.value))),
    ...CLUSTER_PRESETS.map((p) => p.gpusPerNode.value),
  ]),
]
  .filter((n) => n <= MAX_SIMULATED_WORLD)
  .sort((a, b) => a - b);

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
  if (!NODE_CHOICES.includes(nodes) || !GPU_CHOICES.includes(gpusPerNode))
    throw new Error(`${nodes} nodes × ${gpusPerNode} GPUs is not a shape the selector offers`);
  if (nodes * gpusPerNode > MAX_SIMULATED_WORLD)
    throw new Error(
      `nodes × GPUs per node must be 1 to ${MAX_SIMULATED_WORLD}, not ${nodes * gpusPerNode}`,
    );
}

/** Checks an embed's real-time world choices, so a chapter cannot offer the laptop more than MAX_REAL_TIME_WORLD ranks. */
export function checkRealTimeWorlds(worlds: readonly number[]): void {
  const over = worlds.filter((w) => !Number.isInteger(w) || w < 1 || w > MAX_REAL_TIME_WORLD);
  if (over.length)
    throw new Error(
      `A playground runs 1 to ${MAX_REAL_TIME_WORLD} ranks in real time, not ${over.join(', ')}: a larger world needs a cluster preset`,
    );
}
