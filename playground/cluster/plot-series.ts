import type { PlotKind, PlotPoint } from '../contract/protocol.ts';

/** Charts a run draws; points for further charts are counted (a page of 20,000 charts would not respond). */
export const MAX_PLOT_CHARTS = 64;
/** Series one chart draws; points for further series are counted. */
export const MAX_PLOT_SERIES = 32;

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
  /** Series past MAX_PLOT_SERIES that were not drawn. */
  omittedSeries: number;
}

/** A run's charts, and how many past MAX_PLOT_CHARTS were not drawn. */
export type PlotCharts = PlotChart[] & { omittedCharts: number };

/**
 * Groups a run's plot points into charts (by name and kind, in first-drawn order) and series (by name,
 * ordered by the first rank that drew each).
 * A line's points are sorted by x; a bar drawn twice keeps its last value.
 */
export function chartsOf(points: readonly PlotPoint[]): PlotCharts {
  type Building = PlotChart & {
    bySeries: Map<string, PlotSeries & { byX?: Map<number | string, { y: number }> }>;
    omitted: Set<string>;
  };
  const charts = new Map<string, Building>();
  const omittedCharts = new Set<string>();
  for (const p of points) {
    const key = `${p.kind}\u0000${p.chart}`;
    let chart = charts.get(key);
    if (!chart) {
      if (charts.size >= MAX_PLOT_CHARTS) {
        omittedCharts.add(key);
        continue;
      }
      chart = {
        title: p.chart,
        kind: p.kind,
        series: [],
        xs: [],
        omittedSeries: 0,
        bySeries: new Map(),
        omitted: new Set(),
      };
      charts.set(key, chart);
    }
    let series = chart.bySeries.get(p.series);
    if (!series) {
      if (chart.bySeries.size >= MAX_PLOT_SERIES) {
        chart.omitted.add(p.series);
        continue;
      }
      series = { name: p.series, rank: p.rank, points: [], byX: new Map() };
      chart.bySeries.set(p.series, series);
      chart.series.push(series);
    }
    if (p.kind === 'bar') {
      // Indexed: a chart of 20,000 bars would otherwise search its points once per point.
      const same = series.byX!.get(p.x);
      if (same) same.y = p.y;
      else {
        const point = { x: p.x, y: p.y };
        series.points.push(point);
        series.byX!.set(p.x, point);
      }
    } else series.points.push({ x: p.x, y: p.y });
  }
  const list = [...charts.values()].map(({ bySeries: _, omitted, ...chart }) => {
    chart.omittedSeries = omitted.size;
    for (const s of chart.series) delete (s as { byX?: unknown }).byX;
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
  return Object.assign(list, { omittedCharts: omittedCharts.size });
}

/** What a chart (or the CLI) says about series it did not draw. */
export const omittedSeriesNote = (c: PlotChart): string =>
  `… ${c.omittedSeries.toLocaleString('en-US')} more series were not drawn (a chart draws its first ${MAX_PLOT_SERIES})`;

/** What the page (or the CLI) says about charts it did not draw. */
export const omittedChartsNote = (n: number): string =>
  `… ${n.toLocaleString('en-US')} more charts were not drawn (a run draws its first ${MAX_PLOT_CHARTS})`;

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
  const rows = chartRows(chart).map((r) => r.join('\t'));
  return [
    head,
    header.join('\t'),
    ...rows,
    ...(chart.omittedSeries ? [omittedSeriesNote(chart)] : []),
  ];
}

/** Every chart of a run as text, and a note when the run drew more points than it kept. */
export function plotsText(points: readonly PlotPoint[], total = points.length): string[] {
  const charts = chartsOf(points);
  const lines = charts.flatMap((c) => [...chartText(c), '']);
  if (charts.omittedCharts) lines.push(omittedChartsNote(charts.omittedCharts));
  if (total > points.length)
    lines.push(
      `… ${total - points.length} more plot points were not kept (a run keeps its first ${points.length})`,
    );
  return lines;
}
