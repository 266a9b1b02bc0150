import {
  chartRows,
  chartsOf,
  formatPlotNumber,
  omittedChartsNote,
  omittedSeriesNote,
  type PlotChart,
} from '../../../playground/cluster/protocol.ts';
import { MAX_PLOT_POINTS, type PlotPoint } from '../../../playground/contract/protocol.ts';
import { injectCss } from './inject-css.ts';
import { niceTicks } from './nice-ticks.ts';
import { svgEl } from './svg-element.ts';

const WIDTH = 640;
const HEIGHT = 260;
const PAD = { left: 56, right: 12, top: 10, bottom: 34 };
/** Rows a chart's table shows; the CLI prints every row. */
export const MAX_TABLE_ROWS = 1000;
/**
 * Bars (labels) a bar chart's picture draws; the table and the CLI have the rest. 20,000 labels drew 40,000
 * SVG elements at each redraw: a 1.4 s main-thread task (issue 34, item 8).
 */
export const MAX_DRAWN_BARS = 128;
/** Charts painted as soon as they have points; the rest wait until they come near the viewport. */
const EAGER_CHARTS = 8;
/** Shortest gap between two redraws while points stream in. */
const REDRAW_MS = 250;
/** Series past the eighth colour get a dash pattern, so no two look the same. */
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];

const CSS = `
ranks-playground .pg-plots { display: grid; gap: 0.75rem; margin-top: 0.6rem; }
ranks-playground .pg-plot { margin: 0; border: 1px solid var(--border); border-radius: var(--radius); padding: 0.4rem 0.6rem; background: var(--bg); }
ranks-playground .pg-plot-head { display: flex; align-items: baseline; justify-content: space-between; gap: 0.5rem; }
ranks-playground .pg-plot figcaption { font-weight: 600; font-size: 0.9rem; }
ranks-playground .pg-plot-svg { width: 100%; height: auto; display: block; }
ranks-playground .pg-plot-picture:empty { aspect-ratio: 640 / 290; } /* a picture not painted yet keeps its place */
ranks-playground .pg-plot-svg text { fill: var(--muted); font: 11px var(--font-mono); }
@media (max-width: 480px) { ranks-playground .pg-plot-svg text { font-size: 22px; } } /* the 640-wide chart shrinks to half on a phone: keep its ticks about 10 px */
ranks-playground .pg-plot-svg .axis { stroke: var(--muted); stroke-width: 1; }
ranks-playground .pg-plot-svg .grid { stroke: var(--border); stroke-width: 1; }
ranks-playground .pg-plot-legend { display: flex; flex-wrap: wrap; gap: 0.2rem 0.9rem; margin: 0.2rem 0 0; padding: 0; list-style: none; font-size: 0.8rem; }
ranks-playground .pg-plot-legend svg { vertical-align: middle; margin-right: 0.3rem; }
ranks-playground .pg-plot-table { max-height: 16rem; overflow: auto; margin-top: 0.4rem; }
ranks-playground .pg-plot-table table { border-collapse: collapse; font: 0.8rem var(--font-mono); }
ranks-playground .pg-plot-table th, ranks-playground .pg-plot-table td { border: 1px solid var(--border); padding: 0.1rem 0.5rem; text-align: right; }
ranks-playground .pg-plot-table caption { text-align: left; font-size: 0.8rem; color: var(--muted); }
`;

const chartKey = (c: { kind: string; title?: string; chart?: string }) =>
  `${c.kind}\u0000${c.title ?? c.chart}`;

const colour = (i: number) => `var(--rank-${i % 8})`;
const dash = (i: number) => DASHES[Math.floor(i / 8) % DASHES.length]!;

/** [lo, hi] of the values, widened when flat (a constant series still gets an axis). */
function extent(values: number[], fromZero: boolean): [number, number] {
  let lo = fromZero ? 0 : Infinity;
  let hi = fromZero ? 0 : -Infinity;
  for (const v of values) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  if (lo === hi) return [lo - (Math.abs(lo) || 1) / 2, hi + (Math.abs(hi) || 1) / 2];
  return [lo, hi];
}

/** What a screen reader hears for the picture: kind, series, and the ranges of both axes. */
/** Bars of a bar chart past MAX_DRAWN_BARS (0 for a line chart). */
const undrawnBars = (c: PlotChart) =>
  c.kind === 'bar' ? Math.max(0, c.xs.length - MAX_DRAWN_BARS) : 0;

function describeChart(c: PlotChart): string {
  const ys = c.series.flatMap((s) => s.points.map((p) => p.y));
  const names = c.series.map((s) => s.name).join(', ');
  const xs =
    c.kind === 'line'
      ? `x from ${formatPlotNumber(c.xs[0] as number)} to ${formatPlotNumber(c.xs.at(-1) as number)}`
      : `bars ${c.xs.slice(0, MAX_DRAWN_BARS).join(', ')}${undrawnBars(c) ? ` and ${undrawnBars(c)} more` : ''}`;
  return `${c.kind === 'line' ? 'Line' : 'Bar'} chart "${c.title}": ${c.series.length} series (${names}); ${xs}; values from ${formatPlotNumber(Math.min(...ys))} to ${formatPlotNumber(Math.max(...ys))}. The table button shows every value.`;
}

function drawAxes(svg: SVGSVGElement, yTicks: number[], y: (v: number) => number): void {
  for (const t of yTicks) {
    svg.append(
      svgEl('line', { class: 'grid', x1: PAD.left, x2: WIDTH - PAD.right, y1: y(t), y2: y(t) }),
    );
    const label = svgEl('text', { x: PAD.left - 6, y: y(t) + 4, 'text-anchor': 'end' });
    label.textContent = formatPlotNumber(t);
    svg.append(label);
  }
  const bottom = HEIGHT - PAD.bottom;
  svg.append(
    svgEl('line', { class: 'axis', x1: PAD.left, x2: WIDTH - PAD.right, y1: bottom, y2: bottom }),
  );
  svg.append(svgEl('line', { class: 'axis', x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: bottom }));
}

function lineChart(c: PlotChart): SVGSVGElement {
  const svg = svgEl('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'pg-plot-svg' });
  const [x0, x1] = extent(c.xs as number[], false);
  const [y0, y1] = extent(
    c.series.flatMap((s) => s.points.map((p) => p.y)),
    false,
  );
  const x = (v: number) => PAD.left + ((v - x0) / (x1 - x0)) * (WIDTH - PAD.left - PAD.right);
  const y = (v: number) =>
    HEIGHT - PAD.bottom - ((v - y0) / (y1 - y0)) * (HEIGHT - PAD.top - PAD.bottom);
  drawAxes(svg, niceTicks(y0, y1), y);
  for (const t of niceTicks(x0, x1, 6)) {
    const label = svgEl('text', { x: x(t), y: HEIGHT - PAD.bottom + 16, 'text-anchor': 'middle' });
    label.textContent = formatPlotNumber(t);
    svg.append(label);
  }
  c.series.forEach((s, i) => {
    const points = s.points.map((p) => `${x(p.x as number).toFixed(1)},${y(p.y).toFixed(1)}`);
    const style = `stroke: ${colour(i)}; fill: none; stroke-width: 2`;
    if (points.length > 1)
      svg.append(
        svgEl('polyline', { points: points.join(' '), style, 'stroke-dasharray': dash(i) }),
      );
    else if (points.length === 1) {
      const [px, py] = points[0]!.split(',');
      svg.append(svgEl('circle', { cx: px!, cy: py!, r: 3, style: `fill: ${colour(i)}` }));
    }
  });
  return svg;
}

function barChart(c: PlotChart): SVGSVGElement {
  const svg = svgEl('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'pg-plot-svg' });
  const [y0, y1] = extent(
    c.series.flatMap((s) => s.points.map((p) => p.y)),
    true,
  );
  const y = (v: number) =>
    HEIGHT - PAD.bottom - ((v - y0) / (y1 - y0)) * (HEIGHT - PAD.top - PAD.bottom);
  drawAxes(svg, niceTicks(y0, y1), y);
  const labels = c.xs.slice(0, MAX_DRAWN_BARS);
  const group = (WIDTH - PAD.left - PAD.right) / labels.length;
  // Indexed once: a search per label and series is quadratic in the number of bars.
  const bySeries = c.series.map((s) => new Map(s.points.map((p) => [p.x, p])));
  const bar = (group * 0.8) / c.series.length;
  labels.forEach((label, g) => {
    const text = svgEl('text', {
      x: PAD.left + (g + 0.5) * group,
      y: HEIGHT - PAD.bottom + 16,
      'text-anchor': 'middle',
    });
    text.textContent = String(label);
    svg.append(text);
    c.series.forEach((s, i) => {
      const p = bySeries[i]!.get(label);
      if (!p) return;
      const top = y(Math.max(p.y, 0));
      svg.append(
        svgEl('rect', {
          x: PAD.left + g * group + group * 0.1 + i * bar,
          y: top,
          width: Math.max(bar - 1, 1),
          height: Math.max(Math.abs(y(p.y) - y(0)), 0.5),
          style: `fill: ${colour(i)}`,
        }),
      );
    });
  });
  return svg;
}

function legend(c: PlotChart): HTMLUListElement {
  const ul = document.createElement('ul');
  ul.className = 'pg-plot-legend';
  ul.setAttribute('aria-label', `Series of ${c.title}`);
  c.series.forEach((s, i) => {
    const li = document.createElement('li');
    const swatch = svgEl('svg', { width: 22, height: 10, 'aria-hidden': 'true' });
    swatch.append(
      c.kind === 'line'
        ? svgEl('line', {
            x1: 1,
            x2: 21,
            y1: 5,
            y2: 5,
            style: `stroke: ${colour(i)}; stroke-width: 2`,
            'stroke-dasharray': dash(i),
          })
        : svgEl('rect', { x: 6, y: 0, width: 10, height: 10, style: `fill: ${colour(i)}` }),
    );
    li.append(swatch, s.name);
    ul.append(li);
  });
  return ul;
}

function table(c: PlotChart): HTMLTableElement {
  const t = document.createElement('table');
  const rows = chartRows(c);
  const caption = t.createCaption();
  caption.textContent =
    rows.length > MAX_TABLE_ROWS
      ? `${c.title}: the first ${MAX_TABLE_ROWS} of ${rows.length} rows (npm run ranks -- run prints them all)`
      : `${c.title}: every value`;
  const head = t.createTHead().insertRow();
  for (const name of [c.kind === 'line' ? 'x' : 'bar', ...c.series.map((s) => s.name)]) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = name;
    head.append(th);
  }
  const body = t.createTBody();
  for (const row of rows.slice(0, MAX_TABLE_ROWS)) {
    const tr = body.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = row[0]!;
    tr.append(th);
    for (const cell of row.slice(1)) tr.insertCell().textContent = cell;
  }
  return t;
}

interface Figure {
  figure: HTMLElement;
  picture: HTMLElement;
  tableBox: HTMLElement;
  button: HTMLButtonElement;
  /** The chart's latest data; `painted` is false until its picture shows it. */
  chart?: PlotChart;
  painted: boolean;
  /** Near the viewport (or no IntersectionObserver): pictures are painted only there. */
  visible: boolean;
}

/** Draws a figure's picture (SVG, legend, notes) and its open table from its latest chart. */
function paint(f: Figure): void {
  const c = f.chart;
  if (!c) return;
  f.painted = true;
  const svg = c.kind === 'line' ? lineChart(c) : barChart(c);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', describeChart(c));
  const extra: HTMLElement[] = [];
  const notes = [
    ...(c.omittedSeries ? [omittedSeriesNote(c)] : []),
    ...(undrawnBars(c)
      ? [
          `… ${undrawnBars(c).toLocaleString('en-US')} more bars were not drawn (a chart draws its first ${MAX_DRAWN_BARS}; Show table lists the first ${MAX_TABLE_ROWS.toLocaleString('en-US')}, npm run ranks -- run prints them all)`,
        ]
      : []),
  ];
  for (const note of notes) {
    const p = document.createElement('p');
    p.className = 'pg-dropped';
    p.textContent = note;
    extra.push(p);
  }
  f.picture.replaceChildren(svg, legend(c), ...extra);
  if (!f.tableBox.hidden) f.tableBox.replaceChildren(table(c));
}

/**
 * The charts a run's program drew with `plot`, under its output: one figure per chart, an SVG picture
 * (`role="img"`, its label giving series and ranges) with a legend, and a table of every value behind a
 * toggle. Points stream in; the figures redraw at most every REDRAW_MS.
 */
export class PlotView {
  readonly root: HTMLElement;
  private points: PlotPoint[] = [];
  /** Points past MAX_PLOT_POINTS (the run record keeps the same first ones). */
  private dropped = 0;
  private note: HTMLParagraphElement;
  private figures = new Map<string, Figure>();
  /** Charts that received points since they were last drawn. */
  private dirty = new Set<string>();
  private frame = 0;
  private lastDraw = 0;
  /** Paints a figure's picture when it comes near the viewport: 64 pictures at once stall the page ~1 s. */
  private nearby =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver(
          (entries) => {
            for (const e of entries) {
              const f = [...this.figures.values()].find((g) => g.figure === e.target);
              if (!f) continue;
              f.visible = e.isIntersecting;
              if (f.visible && !f.painted) paint(f);
            }
          },
          { rootMargin: '300px 0px' },
        )
      : undefined;

  constructor() {
    injectCss(CSS);
    this.root = document.createElement('div');
    this.root.className = 'pg-plots';
    this.root.hidden = true;
    this.note = document.createElement('p');
    this.note.className = 'pg-dropped';
  }

  reset(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.points = [];
    this.dropped = 0;
    this.nearby?.disconnect();
    this.figures.clear();
    this.dirty.clear();
    this.root.replaceChildren();
    this.root.hidden = true;
  }

  add(points: readonly PlotPoint[]): void {
    for (const p of points)
      if (this.points.length < MAX_PLOT_POINTS) {
        this.points.push(p);
        this.dirty.add(chartKey(p));
      } else this.dropped++;
    this.frame ||= requestAnimationFrame(() => this.drawWhenDue());
  }

  /** Draws now whatever is waiting (the run ended). */
  flushNow(): void {
    if (!this.frame) return;
    cancelAnimationFrame(this.frame);
    this.draw();
  }

  private drawWhenDue(): void {
    if (performance.now() - this.lastDraw < REDRAW_MS) {
      this.frame = requestAnimationFrame(() => this.drawWhenDue());
      return;
    }
    this.draw();
  }

  private draw(): void {
    this.frame = 0;
    this.lastDraw = performance.now();
    const charts = chartsOf(this.points);
    this.root.hidden = charts.length === 0;
    const notes = [
      ...(this.dropped
        ? [
            `${this.dropped.toLocaleString('en')} more plot points were not drawn (a run keeps its first ${MAX_PLOT_POINTS.toLocaleString('en')}).`,
          ]
        : []),
      ...(charts.omittedCharts ? [omittedChartsNote(charts.omittedCharts)] : []),
    ];
    this.note.textContent = notes.join(' ');
    if (notes.length) this.root.append(this.note);
    for (const c of charts) {
      const key = chartKey(c);
      // Only a chart that received points since the last draw is drawn again.
      if (!this.dirty.has(key)) continue;
      const f = this.figure(key, c.title);
      f.chart = c;
      f.painted = false;
      if (f.visible) paint(f);
    }
    this.dirty.clear();
  }

  private figure(key: string, title: string): Figure {
    let f = this.figures.get(key);
    if (f) return f;
    const figure = document.createElement('figure');
    figure.className = 'pg-plot';
    figure.dataset.chart = title;
    const head = document.createElement('div');
    head.className = 'pg-plot-head';
    const caption = document.createElement('figcaption');
    caption.textContent = title;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'pg-view-toggle pg-plot-toggle';
    button.textContent = 'Show table';
    button.setAttribute('aria-expanded', 'false');
    const picture = document.createElement('div');
    const tableBox = document.createElement('div');
    tableBox.className = 'pg-plot-table';
    tableBox.id = `pg-plot-${crypto.randomUUID()}`;
    tableBox.tabIndex = 0; // a scrolling region must be reachable by keyboard
    tableBox.setAttribute('role', 'region');
    tableBox.setAttribute('aria-label', `${title}: values`);
    tableBox.hidden = true;
    button.setAttribute('aria-controls', tableBox.id);
    head.append(caption, button);
    figure.append(head, picture, tableBox);
    this.root.append(figure);
    // The first EAGER_CHARTS paint at once (a playground's usual few); later ones when they come near the viewport.
    const eager = !this.nearby || this.figures.size < EAGER_CHARTS;
    f = { figure, picture, tableBox, button, painted: false, visible: eager };
    picture.className = 'pg-plot-picture';
    button.onclick = () => {
      const show = tableBox.hidden;
      tableBox.hidden = !show;
      button.setAttribute('aria-expanded', String(show));
      button.textContent = show ? 'Hide table' : 'Show table';
      tableBox.replaceChildren(...(show && f!.chart ? [table(f!.chart)] : []));
    };
    this.figures.set(key, f);
    if (!eager) this.nearby!.observe(figure);
    return f;
  }
}
