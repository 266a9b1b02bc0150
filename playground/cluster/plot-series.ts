import type { PlotKind, PlotPoint } from '../contract/protocol.ts';

/** One curve (or bar group) of a chart: its points in drawing order. */
export interface PlotSeries {
  name: string;
  /** The first rank that drew into it (a series named by the program may gather several ranks). */
  rank: number;
  points: { x: number | string; y: number }[];
}

/** One chart, as the page draws it and the CLI prints it. */
export interface PlotChart {
  title: string;
  kind: PlotKind;
  series: PlotSeries[];
  /** The x values every series shares a row on: sorted numbers for a line, labels in first-drawn order for bars. */
  xs: (number | string)[];
}

/**
 * Groups a run's plot points into charts (by name and kind, in first-drawn order) and series (by name,
 * ordered by the first rank that drew each).
 * A line's points are sorted by x; a bar drawn twice keeps its last value.
 */
export function chartsOf(points: readonly PlotPoint[]): PlotChart[] {
  const charts = new Map<string, PlotChart & { bySeries: Map<string, PlotSeries> }>();
  for (const p of points) {
    const key = `${p.kind}\u0000${p.chart}`;
    let chart = charts.get(key);
    if (!chart)
      charts.set(
        key,
        (chart = { title: p.chart, kind: p.kind, series: [], xs: [], bySeries: new Map() }),
      );
    let series = chart.bySeries.get(p.series);
    if (!series) {
      series = { name: p.series, rank: p.rank, points: [] };
      chart.bySeries.set(p.series, series);
      chart.series.push(series);
    }
    if (p.kind === 'bar') {
      const same = series.points.find((q) => q.x === p.x);
      if (same) same.y = p.y;
      else series.points.push({ x: p.x, y: p.y });
    } else series.points.push({ x: p.x, y: p.y });
  }
  return [...charts.values()].map(({ bySeries: _, ...chart }) => {
    // Ranks run concurrently, so arrival order changes from run to run: order (and colour) series by the
    // rank that first drew them, each rank's in its own drawing order (a stable sort).
    chart.series.sort((a, b) => a.rank - b.rank);
    const xs = new Set<number | string>();
    for (const s of chart.series) {
      if (chart.kind === 'line') s.points.sort((a, b) => (a.x as number) - (b.x as number));
      for (const p of s.points) xs.add(p.x);
    }
    const list = [...xs];
    if (chart.kind === 'line') list.sort((a, b) => (a as number) - (b as number));
    return { ...chart, xs: list };
  });
}

/** A number as a chart's table and the CLI print it: four significant digits, no trailing zeros. */
export const formatPlotNumber = (v: number): string =>
  Number.isInteger(v) && Math.abs(v) < 1e6 ? String(v) : String(Number(v.toPrecision(4)));

/** Rows of a chart's table: one per x, one column per series ('' where a series has no point at that x). */
export function chartRows(chart: PlotChart): string[][] {
  const columns = chart.series.map((s) => {
    const byX = new Map<number | string, number>();
    for (const p of s.points) byX.set(p.x, p.y); // a line drawn twice at one x shows its last y
    return byX;
  });
  return chart.xs.map((x) => [
    typeof x === 'number' ? formatPlotNumber(x) : x,
    ...columns.map((c) => (c.has(x) ? formatPlotNumber(c.get(x)!) : '')),
  ]);
}

/**
 * A chart as text, the way `npm run ranks -- run` prints it: a title line, then a tab-separated table
 * (first column x, or the bar's label; one column per series).
 */
export function chartText(chart: PlotChart): string[] {
  const count = chart.series.reduce((n, s) => n + s.points.length, 0);
  const head = `plot "${chart.title}" (${chart.kind}, ${chart.series.length} series, ${count} point${count === 1 ? '' : 's'})`;
  const header = [chart.kind === 'line' ? 'x' : 'label', ...chart.series.map((s) => s.name)];
  return [head, header.join('\t'), ...chartRows(chart).map((r) => r.join('\t'))];
}

/** Every chart of a run as text, and a note when the run drew more points than it kept. */
export function plotsText(points: readonly PlotPoint[], total = points.length): string[] {
  const lines = chartsOf(points).flatMap((c) => [...chartText(c), '']);
  if (total > points.length)
    lines.push(
      `… ${total - points.length} more plot points were not kept (a run keeps its first ${points.length})`,
    );
  return lines;
}
