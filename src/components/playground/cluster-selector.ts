/**
 * The playground's "where the ranks run" controls: this laptop in real time, or a cluster preset ×
 * nodes × GPUs per node in virtual time. The choices are HTML the page already holds (no preset data
 * ships as JavaScript); this only keeps them consistent (world ≤ the real-rank limit) and reads them.
 */

/** Largest world a playground may start (contract MAX_WORLD_SIZE; the selects list no more). */
const MAX_RANKS = 16;
const LAPTOP = 'laptop';

/** A run on a simulated cluster; absent for the reader's own machine. */
export interface ClusterSelection {
  preset: string;
  nodes: number;
  gpusPerNode: number;
}

interface Parts {
  cluster: HTMLSelectElement;
  nodes: HTMLSelectElement;
  gpus: HTMLSelectElement;
  world: HTMLSelectElement;
  worldLabel: HTMLElement;
  shape: HTMLElement;
  total: HTMLOutputElement;
  note: HTMLElement;
}

function parts(root: HTMLElement): Parts {
  const q = <T extends Element>(sel: string) => root.querySelector<T>(sel)!;
  return {
    cluster: q('[data-cluster-select]'),
    nodes: q('[data-nodes-select]'),
    gpus: q('[data-gpus-select]'),
    world: q('[data-world-select]'),
    worldLabel: q('[data-world-label]'),
    shape: q('[data-cluster-shape]'),
    total: q('[data-cluster-world]'),
    note: q('[data-cluster-note]'),
  };
}

/** The chosen cluster, or undefined for the laptop. */
export function clusterSelection(root: HTMLElement): ClusterSelection | undefined {
  const p = parts(root);
  if (p.cluster.value === LAPTOP) return undefined;
  return {
    preset: p.cluster.value,
    nodes: Number(p.nodes.value),
    gpusPerNode: Number(p.gpus.value),
  };
}

/** Ranks the next run starts: nodes × GPUs per node on a cluster, else the Ranks choice. */
export function chosenWorld(root: HTMLElement): number {
  const c = clusterSelection(root);
  return c ? c.nodes * c.gpusPerNode : Number(parts(root).world.value);
}

/** "h100-ndr, 2 nodes × 8 GPUs": how the page names a chosen cluster. */
export function describeSelection(c: ClusterSelection): string {
  return `${c.preset}, ${c.nodes} node${c.nodes === 1 ? '' : 's'} × ${c.gpusPerNode} GPU${c.gpusPerNode === 1 ? '' : 's'}`;
}

/** Disables the node and GPU counts that would exceed the preset's node or the real-rank limit. */
function constrain(p: Parts): void {
  const maxGpus = Number(p.cluster.selectedOptions[0]?.dataset.gpus ?? MAX_RANKS);
  const n = Number(p.nodes.value);
  const g = Number(p.gpus.value);
  for (const o of p.gpus.options)
    o.disabled = Number(o.value) > maxGpus || Number(o.value) * n > MAX_RANKS;
  for (const o of p.nodes.options) o.disabled = Number(o.value) * g > MAX_RANKS;
}

/** Wires the controls: picking a preset starts from its usual node count and the current rank count. */
export function wireClusterSelector(root: HTMLElement, onChange: (text: string) => void): void {
  const p = parts(root);
  const update = () => {
    const c = clusterSelection(root);
    p.shape.hidden = !c;
    p.worldLabel.hidden = !!c;
    const world = chosenWorld(root);
    root.dataset.world = String(world);
    if (!c) {
      p.note.textContent = 'Times are real: the ranks share this computer’s cores.';
      onChange(
        `Runs on ${world} simulated rank${world === 1 ? '' : 's'} in your browser, in real time.`,
      );
      return;
    }
    constrain(p);
    p.total.value = `= ${world} rank${world === 1 ? '' : 's'}`;
    p.note.textContent = `${p.cluster.selectedOptions[0]?.dataset.description ?? c.preset}. Times are virtual: what this program would take on that cluster, the same on any machine.`;
    onChange(`Runs ${world} ranks in your browser, timed as ${describeSelection(c)}.`);
  };
  p.cluster.addEventListener('change', () => {
    const option = p.cluster.selectedOptions[0];
    if (option && p.cluster.value !== LAPTOP) {
      const nodes = Number(option.dataset.nodes ?? 1);
      const maxGpus = Math.min(Number(option.dataset.gpus ?? 1), Math.floor(MAX_RANKS / nodes));
      const wanted = Math.ceil(Number(p.world.value) / nodes);
      p.nodes.value = String(nodes);
      p.gpus.value = String(Math.max(1, Math.min(maxGpus, wanted)));
    }
    update();
  });
  p.nodes.addEventListener('change', update);
  p.gpus.addEventListener('change', update);
  p.world.addEventListener('change', update);
  if (clusterSelection(root)) constrain(p);
}
