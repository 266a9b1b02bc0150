/**
 * The playground's "where the ranks run" controls: this laptop in real time, or a cluster preset ×
 * nodes × GPUs per node in virtual time. The choices are HTML the page already holds (no preset data
 * ships as JavaScript); this only keeps them consistent (world ≤ the page's limit, `data-max-world`, which
 * the build writes from src/lib/playground/cluster-choices.ts) and reads them.
 */

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
  /** Largest simulated world (nodes × GPUs per node). */
  maxWorld: number;
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
    maxWorld: Number(root.dataset.maxWorld ?? 16),
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

/** Disables the node and GPU counts that would exceed the preset's node or the world limit. */
function constrain(p: Parts): void {
  const maxGpus = Number(p.cluster.selectedOptions[0]?.dataset.gpus ?? p.maxWorld);
  const n = Number(p.nodes.value);
  const g = Number(p.gpus.value);
  for (const o of p.gpus.options)
    o.disabled = Number(o.value) > maxGpus || Number(o.value) * n > p.maxWorld;
  for (const o of p.nodes.options) o.disabled = Number(o.value) * g > p.maxWorld;
}

/**
 * Where a simulated world runs: its ranks are logical ranks on this machine's cores (a worker per core,
 * its ranks taking turns: playground/cluster/cluster-core.ts hostWorkers), timed by the cluster model.
 */
function whereItRuns(world: number): string {
  const cores = navigator.hardwareConcurrency || 1;
  if (world <= cores)
    return `Here each of the ${world} rank${world === 1 ? '' : 's'} gets a worker of its own on this machine.`;
  return `Here the ${world.toLocaleString('en')} ranks run as logical ranks on this machine’s ${cores} core${cores === 1 ? '' : 's'}, a worker per core, its ranks taking turns; every rank still runs the whole program.`;
}

function simulatedNote(p: Parts, c: ClusterSelection, world: number): string {
  return `${p.cluster.selectedOptions[0]?.dataset.description ?? c.preset}. Times are virtual: what this program would take on that cluster, the same on any machine. ${whereItRuns(world)}`;
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
      p.note.textContent = p.note.dataset.realNote ?? '';
      onChange(
        `Runs on ${world} simulated rank${world === 1 ? '' : 's'} in your browser, in real time.`,
      );
      return;
    }
    constrain(p);
    p.total.value = `= ${world.toLocaleString('en')} rank${world === 1 ? '' : 's'}`;
    p.note.textContent = simulatedNote(p, c, world);
    onChange(`Runs ${world} ranks in your browser, timed as ${describeSelection(c)}.`);
  };
  p.cluster.addEventListener('change', () => {
    const option = p.cluster.selectedOptions[0];
    if (option && p.cluster.value !== LAPTOP) {
      const nodes = Number(option.dataset.nodes ?? 1);
      const maxGpus = Math.min(Number(option.dataset.gpus ?? 1), Math.floor(p.maxWorld / nodes));
      const wanted = Math.ceil(Number(p.world.value) / nodes);
      p.nodes.value = String(nodes);
      p.gpus.value = String(Math.max(1, Math.min(maxGpus, wanted)));
    }
    update();
  });
  p.nodes.addEventListener('change', update);
  p.gpus.addEventListener('change', update);
  p.world.addEventListener('change', update);
  const preset = clusterSelection(root);
  if (preset) {
    constrain(p);
    p.note.textContent = simulatedNote(p, preset, chosenWorld(root));
  }
}
