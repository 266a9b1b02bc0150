/** The scaling plot's model series, shared by the server render and the overlap toggle. */
import {
  scalingCurve,
  defaultScalingInputs,
  SCALING_DEFAULTS,
} from '../../lib/figures/scaling-model';
import type { ChartSeries } from './scaling-chart-svg';

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
