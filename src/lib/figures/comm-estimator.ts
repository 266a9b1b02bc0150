/**
 * What the communication-time estimator shows, computed once for the server render, the custom
 * element and the tests: the cluster model's gradient all-reduce next to compute on a preset.
 */
import {
  CLUSTER_PRESETS,
  clusterPreset,
  clusterShape,
  NCCL_VERSION,
  type ClusterPreset,
} from '../../../playground/simulation/index.ts';
import { estimateStep, type StepEstimate } from './efficiency';
import { fmtInt, fmtPercent, fmtSeconds } from './format-quantities';

export interface EstimatorInput {
  /** Parameters (not billions). */
  params: number;
  preset: string;
  nodes: number;
  gpusPerNode: number;
  tokensPerGpu: number;
  mfu: number;
  /** Bytes per gradient on the wire: 2 (bf16, a compression hook or bf16 gradients; the default) or 4 (plain DDP on fp32 parameters). */
  gradBytes?: number;
}

export type EstimatorOutputs = Record<
  | 'allreduce'
  | 'algorithm'
  | 'busbw'
  | 'compute'
  | 'backward'
  | 'step'
  | 'efficiency'
  | 'breakeven'
  | 'world'
  | 'verdict',
  string
>;

/** The presets the reader can choose, in the preset list's order. */
export const ESTIMATOR_PRESETS: readonly ClusterPreset[] = CLUSTER_PRESETS;

const ALGORITHM_NAME = {
  ring: 'ring',
  tree: 'tree',
  nvls: 'NVLink SHARP',
  'nvls-tree': 'NVLink SHARP inside nodes, tree across',
  p2p: 'point to point',
} as const;

export const VERDICT = {
  network: 'Network bound: the all-reduce outlasts the backward pass it should hide behind.',
  compute: 'Compute bound: the all-reduce hides behind the backward pass.',
} as const;

/** Why an input cannot be estimated, or undefined when it can. */
export function estimatorInputError(i: EstimatorInput): string | undefined {
  const numbers = [i.params, i.nodes, i.gpusPerNode, i.tokensPerGpu, i.mfu];
  if (!numbers.every(Number.isFinite) || i.params <= 0 || i.tokensPerGpu <= 0)
    return 'Enter a positive model size and a positive number of tokens.';
  if (!(i.mfu > 0 && i.mfu <= 1)) return 'Enter an MFU between 1 and 100 %.';
  try {
    clusterShape(i.preset, i.nodes, i.gpusPerNode);
  } catch (e) {
    return `${(e as Error).message}.`;
  }
  return undefined;
}

export function estimate(i: EstimatorInput): StepEstimate {
  return estimateStep({
    params: i.params,
    tokensPerGpu: i.tokensPerGpu,
    cluster: clusterShape(i.preset, i.nodes, i.gpusPerNode),
    mfu: i.mfu,
    gradBytes: i.gradBytes,
  });
}

/** Every output of the widget, formatted as the page prints it. */
export function estimatorOutputs(i: EstimatorInput): EstimatorOutputs {
  const e = estimate(i);
  const c = e.collective;
  return {
    allreduce: fmtSeconds(e.allReduce),
    algorithm:
      e.gpus === 1 ? 'one GPU: nothing to send' : `${ALGORITHM_NAME[c.algorithm]}, ${c.protocol}`,
    busbw: `${c.busbw.toFixed(1)} GB/s`,
    compute: fmtSeconds(e.compute),
    backward: fmtSeconds(e.backward),
    step: fmtSeconds(e.stepOverlapped),
    efficiency: fmtPercent(e.efficiency),
    breakeven: fmtInt(e.breakEvenTokensPerGpu),
    world: `${fmtInt(e.gpus)} GPU${e.gpus === 1 ? '' : 's'}`,
    verdict: VERDICT[e.bound],
  };
}

/** A preset's hardware in a few words, without the node count its description may carry. */
export function presetHardware(id: string): string {
  const p = clusterPreset(id);
  const f = p.fabric;
  const fabric =
    f.kind === 'nvlink'
      ? `NVLink ${f.generation}${f.nvls ? ' with NVLink SHARP' : ''}`
      : `PCIe ${f.generation}.0`;
  const nics = p.network.nicsPerNode.value;
  return `${p.gpusPerNode.value}× ${p.gpu.name} on ${fabric}, ${nics}× ${p.network.name} NIC${nics === 1 ? '' : 's'} per node`;
}

/** The footnote for one preset: where each of its numbers comes from, and which NCCL the latencies are. */
export function presetSources(id: string): string[] {
  const p = clusterPreset(id);
  const f = p.fabric;
  const fabric =
    f.kind === 'nvlink'
      ? `NVLink ${f.generation}: ${f.linksPerGpu.value} links (${f.linksPerGpu.source}); NCCL's per-link figure ${f.ncclLinkBandwidth.source}${f.nvls ? `; NVLink SHARP efficiency ${f.nvlsEfficiency.value} (${f.nvlsEfficiency.source})` : ''}`
      : `PCIe ${f.generation}.0 x${f.lanes} (${f.transferRate.source}); NCCL's figure ${f.ncclBandwidth.source}`;
  return [
    `GPU ${p.gpu.name}: ${p.gpu.bf16Flops.source}`,
    fabric,
    `${p.network.nicsPerNode.value} × ${p.network.name} per node: ${p.network.nicsPerNode.source}; ${p.network.nicBandwidth.source}`,
    `Latencies and algorithms: NCCL ${NCCL_VERSION}'s cost model (src/graph/tuning.cc).`,
    ...(p.limitations ? [`Not modelled: ${p.limitations}`] : []),
  ];
}
