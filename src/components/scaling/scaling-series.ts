/** The scaling plot's model series, table and caption, shared by the server render and the overlap toggle. */
import {
  scalingCurve,
  defaultScalingInputs,
  SCALING_DEFAULTS,
} from '../../lib/figures/scaling-model';
import type { ChartSeries } from './scaling-chart-svg';
import { clusterPreset } from '../../../playground/simulation/index.ts';
import {
  fmtGB,
  fmtInt,
  fmtParams,
  fmtPercent,
  fmtSeconds,
} from '../../lib/figures/format-quantities';

export const MODEL_NAME = {
  off: 'cluster model, no overlap',
  on: 'cluster model, all-reduce behind backward',
} as const;

export function modelSeries(overlap: number): ChartSeries[] {
  const curve = scalingCurve(SCALING_DEFAULTS.worldSizes, defaultScalingInputs(overlap));
  return [
    { name: 'ideal (linear)', cls: 'sc-ideal', points: curve.map((p) => ({ n: p.n, y: p.ideal })) },
    {
      name: overlap ? MODEL_NAME.on : MODEL_NAME.off,
      cls: 'sc-model',
      points: curve.map((p) => ({ n: p.n, y: p.throughput })),
    },
  ];
}

/** The data table's rows for a setting of the overlap toggle: the same numbers the curve is drawn from. */
export function scalingTableRows(overlap: number): string[][] {
  return scalingCurve(SCALING_DEFAULTS.worldSizes, defaultScalingInputs(overlap)).map((p) => [
    String(p.n),
    String(p.nodes),
    fmtSeconds(p.commSeconds),
    p.throughput.toFixed(0),
    p.ideal.toFixed(0),
    fmtPercent(p.efficiency),
  ]);
}

/** "1 to 8 nodes of 8× A100-SXM4-80GB, joined by one 100 Gb Ethernet NIC per node": the range the table runs over. */
export function scalingHardware(): string {
  const d = SCALING_DEFAULTS;
  const preset = clusterPreset(d.presetId);
  const curve = scalingCurve(d.worldSizes, defaultScalingInputs(0));
  const nics = preset.network.nicsPerNode.value;
  return (
    `${curve[0]!.nodes} to ${curve.at(-1)!.nodes} nodes of ${preset.gpusPerNode.value}× ${preset.gpu.name}, ` +
    `joined by ${nics === 1 ? 'one' : nics} ${preset.network.name} NIC${nics === 1 ? '' : 's'} per node`
  );
}

/**
 * The caption for a setting of the overlap toggle, read off the same curve as the chart and the table:
 * the node range the table runs over (not the preset's two-node description), where the all-reduce
 * leaves NVLink, and what the largest world keeps of linear scaling with or without overlap.
 */
export function scalingCaption(overlap: number): string {
  const d = SCALING_DEFAULTS;
  const inputs = defaultScalingInputs(overlap);
  const curve = scalingCurve(d.worldSizes, inputs);
  const preset = clusterPreset(d.presetId);
  const perNode = preset.gpusPerNode.value;
  const crossing = curve.find((p) => p.nodes > 1)!;
  const lastInNode = curve.filter((p) => p.nodes === 1).at(-1)!;
  const last = curve.at(-1)!;
  return (
    `Weak scaling of a ${fmtParams(d.params)}-parameter model with fp32 gradients (${fmtGB(inputs.gradientBytes, 2)} per all-reduce), ` +
    `${d.samplesPerRank} samples of ${fmtInt(d.tokensPerSample)} tokens per rank (${fmtSeconds(inputs.forwardSeconds + inputs.backwardSeconds)} of compute per step), ` +
    `on ${scalingHardware()}. ` +
    `Up to ${perNode} ranks the all-reduce stays on NVLink (${fmtSeconds(lastInNode.commSeconds)} at ${lastInNode.n}); ` +
    `at ${crossing.n} it crosses the network (${fmtSeconds(crossing.commSeconds)}), and ` +
    `${overlap ? 'with the all-reduce overlapped behind the backward pass' : 'without overlap'} ${last.n} ranks keep ${fmtPercent(last.efficiency)} of linear scaling. ` +
    `Times from the book's cluster model (playground/simulation).`
  );
}
