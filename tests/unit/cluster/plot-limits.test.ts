/** Issue 34, items 4 and 8: plotting ends, whatever the values, and a run cannot draw without bound. */
import { describe, expect, it } from 'vitest';
import { niceTicks } from '../../../src/components/playground/nice-ticks.ts';
import {
  chartsOf,
  MAX_PLOT_CHARTS,
  MAX_PLOT_SERIES,
  plotsText,
} from '../../../playground/cluster/plot-series.ts';
import type { PlotPoint } from '../../../playground/contract/protocol.ts';

describe('niceTicks always ends', () => {
  it('0.1 + 0.2 against 0.3: the two ends, not an endless loop', () => {
    expect(niceTicks(0.3, 0.1 + 0.2)).toEqual([0.3, 0.30000000000000004]);
    expect(niceTicks(1e15, 1e15 + 0.125)).toHaveLength(2);
  });

  it('ordinary ranges keep their round ticks; reversed, huge and non-finite ones stay bounded', () => {
    expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(1, 0)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(-1.7e308, 1.7e308)).toEqual([-1.7e308, 1.7e308]);
    expect(niceTicks(0, Infinity)).toEqual([]);
    for (const [lo, hi] of [
      [0.1, 0.1 + 1e-16],
      [1e-300, 2e-300],
      [123456.789, 123456.79],
      [-5e-324, 5e-324],
    ] as const)
      expect(niceTicks(lo, hi).length).toBeLessThanOrEqual(12);
  });
});

describe('chart limits and indexed lookups', () => {
  const point = (chart: string, series: string, x: number | string, y = 1): PlotPoint => ({
    rank: 0,
    kind: typeof x === 'number' ? 'line' : 'bar',
    chart,
    series,
    x,
    y,
  });

  it(`draws the first ${MAX_PLOT_CHARTS} charts and ${MAX_PLOT_SERIES} series each, and counts the rest`, () => {
    const points = [
      ...Array.from({ length: 20_000 }, (_, i) => point(`chart ${i}`, 's', 0)),
      ...Array.from({ length: 100 }, (_, i) => point('chart 0', `series ${i}`, 1)),
    ];
    const charts = chartsOf(points);
    expect(charts).toHaveLength(MAX_PLOT_CHARTS);
    expect(charts.omittedCharts).toBe(20_000 - MAX_PLOT_CHARTS);
    expect(charts[0]!.series).toHaveLength(MAX_PLOT_SERIES);
    expect(charts[0]!.omittedSeries).toBe(100 + 1 - MAX_PLOT_SERIES);
    const text = plotsText(points);
    expect(text).toContain(
      `… ${(20_000 - MAX_PLOT_CHARTS).toLocaleString('en-US')} more charts were not drawn (a run draws its first ${MAX_PLOT_CHARTS})`,
    );
    expect(text).toContain(
      `… ${100 + 1 - MAX_PLOT_SERIES} more series were not drawn (a chart draws its first ${MAX_PLOT_SERIES})`,
    );
  });

  it('20,000 bar labels group in linear time (a label drawn twice keeps its last value)', () => {
    const points = Array.from({ length: 20_000 }, (_, i) => point('bars', 's', `label ${i}`, i));
    points.push(point('bars', 's', 'label 7', -1));
    const t0 = performance.now();
    const [chart] = chartsOf(points);
    const ms = performance.now() - t0;
    expect(chart!.xs).toHaveLength(20_000);
    expect(chart!.series[0]!.points[7]).toEqual({ x: 'label 7', y: -1 });
    expect(ms).toBeLessThan(500); // the quadratic search took seconds
  });
});
