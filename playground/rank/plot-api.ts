import { MAX_PLOT_NAME, type PlotKind, type PlotPoint } from '../contract/protocol.ts';

/** Options of one point: the series it belongs to (by default, the rank that drew it: `rank k`). */
export interface PlotOptions {
  /** Name of the curve or bar group, e.g. `'batch 512, linear'`; points with the same name join up. */
  series?: string;
}

/** What a rank's plot points go to; the rank entry installs it once before the program runs. */
type PlotSink = (point: Omit<PlotPoint, 'rank'>) => void;
let sink: PlotSink | undefined;
let rankName = 'rank 0';

/** Called by the rank entry: where points go, and the default series name of this rank. */
export function setPlotSink(next: PlotSink | undefined, rank = 0): void {
  sink = next;
  rankName = `rank ${rank}`;
}

function name(what: string, value: unknown, call: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new TypeError(`${call}: ${what} must be a non-empty string, got ${describe(value)}`);
  if (value.length > MAX_PLOT_NAME)
    throw new RangeError(
      `${call}: ${what} is ${value.length} characters; at most ${MAX_PLOT_NAME}`,
    );
  return value;
}

function finite(what: string, value: unknown, call: string): number {
  if (typeof value !== 'number')
    throw new TypeError(
      `${call}: ${what} must be a number, got ${describe(value)} (read a tensor with \`(await t.data())[0]\`)`,
    );
  if (!Number.isFinite(value))
    throw new RangeError(
      `${call}: ${what} is ${value}; a chart draws finite numbers only (a diverged loss is NaN or Infinity: test it before plotting)`,
    );
  return value;
}

const describe = (v: unknown) =>
  v === null ? 'null' : typeof v === 'object' ? (v.constructor?.name ?? 'object') : typeof v;

function draw(kind: PlotKind, chart: string, x: number | string, y: number, options?: PlotOptions) {
  const call = `plot.${kind}('${String(chart)}')`;
  const series = options?.series === undefined ? rankName : name('series', options.series, call);
  const point = { kind, chart: name('chart', chart, call), series, x, y: finite('y', y, call) };
  if (!sink)
    throw new Error(
      "plot is only available inside a rank: run the program with the playground's Run button or `npm run ranks -- run file.ts --world N`",
    );
  sink(point);
}

/**
 * Charts a program draws from any rank. The page shows each chart under the run's output as an SVG
 * (with a table of its numbers a click away); `npm run ranks -- run` prints each chart as a table of
 * text after the run. A chart is named by its first argument; its series are the ranks that drew it,
 * unless a point names its own series.
 *
 * @example
 * ```ts
 * import { dist, plot } from 'ranks';
 * for (let step = 0; step < 50; step++) {
 *   const loss = await trainStep();                     // a number
 *   plot.line('loss', step, loss);                      // one curve per rank: 'rank 0', 'rank 1', …
 *   if (dist.rank === 0) plot.line('lr', step, lr, { series: 'warm-up' });
 * }
 * plot.bar('peak memory (MiB)', `rank ${dist.rank}`, peakMiB);
 * ```
 */
export const plot = Object.freeze({
  /**
   * Adds the point (`x`, `y`) to the line chart `chart`: `x` a number such as the step, `y` a finite number.
   * @example plot.line('loss', step, (await loss.data())[0])
   */
  line(chart: string, x: number, y: number, options?: PlotOptions): void {
    draw('line', chart, finite('x', x, `plot.line('${String(chart)}')`), y, options);
  },
  /**
   * Sets the bar `label` of the bar chart `chart` to `value` (one bar per label and series; drawing the
   * same bar again replaces it).
   * @example plot.bar('bytes sent (MiB)', 'all-reduce', sent / 2 ** 20)
   */
  bar(chart: string, label: string, value: number, options?: PlotOptions): void {
    draw('bar', chart, name('label', label, `plot.bar('${String(chart)}')`), value, options);
  },
});
