import { describe, expect, it } from 'vitest';
import {
  scalingCaption,
  scalingTableRows,
} from '../../../src/components/scaling/scaling-series.ts';
import {
  defaultScalingInputs,
  scalingCurve,
  SCALING_DEFAULTS,
} from '../../../src/lib/figures/scaling-model.ts';
import { fmtPercent } from '../../../src/lib/figures/format-quantities.ts';

describe("chapter 3's scaling plot: caption and table follow the curve drawn", () => {
  for (const overlap of [0, 1]) {
    const curve = scalingCurve(SCALING_DEFAULTS.worldSizes, defaultScalingInputs(overlap));
    const last = curve.at(-1)!;

    it(`overlap ${overlap}: the caption names the node range of the table and the efficiency of its curve`, () => {
      const caption = scalingCaption(overlap);
      expect(caption).toContain(`on ${curve[0]!.nodes} to ${last.nodes} nodes of 8× A100`);
      expect(caption).not.toMatch(/Two nodes/);
      expect(caption).toContain(
        `${overlap ? 'with the all-reduce overlapped behind the backward pass' : 'without overlap'} ${last.n} ranks keep ${fmtPercent(last.efficiency)} of linear scaling`,
      );
    });

    it(`overlap ${overlap}: the table's rows are the curve's points`, () => {
      const rows = scalingTableRows(overlap);
      expect(rows.map((r) => Number(r[0]))).toEqual(curve.map((p) => p.n));
      expect(rows.map((r) => r[3])).toEqual(curve.map((p) => p.throughput.toFixed(0)));
      expect(rows.map((r) => r[5])).toEqual(curve.map((p) => fmtPercent(p.efficiency)));
    });
  }

  it('overlap changes what the caption and the table say (the curve moves, so must they)', () => {
    expect(scalingCaption(1)).not.toBe(scalingCaption(0));
    expect(scalingTableRows(1).at(-1)![5]).not.toBe(scalingTableRows(0).at(-1)![5]);
  });
});
