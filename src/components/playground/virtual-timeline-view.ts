/**
 * Draws a simulated run in virtual time, one step at a time: per rank a communication lane (NCCL's
 * stream) above a compute lane, so overlap shows as bars stacked in time and exposed communication as
 * gaps in the compute lane. Spans are labelled (forward, backward, bucket k all-reduce, …); hovering or
 * focusing one shows its size, algorithm and bandwidth. A step picker, zoom and pan (buttons, keys and
 * drag) and a legend for every colour; a large world draws rank 0 and the ranks at its arrival percentiles
 * (fastest, p50, p90, p99, slowest) over a band of its arrival skew.
 */
import {
  chromeTrace,
  virtualSpanDetails,
  virtualSpanInfo,
  type Arrivals,
  type VirtualSpanInfo,
  type VirtualTraceEvent,
} from '../../../playground/cluster/protocol.ts';
import { svgEl } from './svg-element.ts';
import { TIMELINE_WIDTH, showEmptyTimeline, type LegendItem } from './timeline-lanes.ts';
import { virtualSpanColor } from './trace-kind-colors.ts';
import {
  clampWindow,
  defaultStep,
  extent,
  panWindow,
  rankRows,
  stepNumbers,
  ticks,
  zoomWindow,
  type StepChoice,
  type Window,
} from './virtual-timeline-model.ts';

const LEFT = 118;
const RIGHT = 8;
const TOP = 14;
const LANE = 14;
const ROW = 2 * LANE + 8;
/** Bars a keyboard reader can tab through; zooming in brings more of a long trace under this. */
const MAX_FOCUSABLE = 100;
/** Zoom never narrows the window below this share of the step (bars stay wider than a pixel). */
const MAX_ZOOM = 2000;

/** A run's virtual span: the contract's, of which the view reads these fields. */
export type VirtualSpan = Pick<VirtualTraceEvent, 'rank' | 'lane' | 'name' | 'start' | 'end'> &
  Partial<Omit<VirtualTraceEvent, 'rank' | 'lane' | 'name' | 'start' | 'end'>>;

/** Seconds as the page prints virtual times: s, ms or µs with three significant figures. */
export function formatSeconds(s: number): string {
  const abs = Math.abs(s);
  if (abs === 0) return '0 s';
  if (abs >= 1) return `${s.toPrecision(3)} s`;
  if (abs >= 1e-3) return `${(s * 1e3).toPrecision(3)} ms`;
  return `${(s * 1e6).toPrecision(3)} µs`;
}

export interface VirtualTimelineOptions {
  clusterName: string;
  /** Spans the run charged in all (the record keeps the first MAX_VIRTUAL_TRACE_EVENTS). */
  total?: number;
  /** Steps the step report lists: the timeline opens on the last of them. */
  reportedSteps?: readonly number[];
  /** For the trace download's per-node processes. */
  gpusPerNode?: number;
  /**
   * A large world's arrival over every rank, at one step or the whole run (RunRecord.arrivals): the spans
   * are then a subset (rank 0's and each step's fastest and slowest rank's).
   */
  arrivals?: (step?: number) => Arrivals | null;
}

interface Drawn {
  span: VirtualSpan & { step: number };
  info: VirtualSpanInfo;
  description: string;
}

function button(text: string, label: string, key: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'pg-view-toggle';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.setAttribute('aria-keyshortcuts', key);
  return b;
}

export function renderVirtualTimeline(
  container: HTMLElement,
  spans: readonly VirtualSpan[],
  worldSize: number,
  options: VirtualTimelineOptions,
): void {
  const { clusterName } = options;
  const total = options.total ?? spans.length;
  if (spans.length === 0) {
    showEmptyTimeline(
      container,
      'Nothing was charged to the virtual clocks, so the timeline is empty.',
    );
    return;
  }
  const all: Drawn[] = spans.map((raw) => {
    const span = { ...raw, step: raw.step ?? 0 };
    const info = virtualSpanInfo(span);
    const extra = virtualSpanDetails(span, info);
    const stream = span.lane === 'comm' ? 'comm' : 'compute';
    const description =
      `rank ${span.rank}, ${stream}: ${info.label}, step ${span.step}, ` +
      `${formatSeconds(span.start)} to ${formatSeconds(span.end)} (${formatSeconds(span.end - span.start)}, virtual)` +
      (extra.length ? `; ${extra.join(', ')}` : '');
    return { span, info, description };
  });
  const steps = stepNumbers(all.map((d) => d.span));
  const communicated = new Set(all.filter((d) => d.span.lane === 'comm').map((d) => d.span.step));
  let step: StepChoice = defaultStep(steps, options.reportedSteps ?? [], communicated);
  let shown: Drawn[] = [];
  let bounds: [number, number] = [0, 1];
  let view: Window = { from: 0, to: 1 };

  // Controls: step picker, zoom, reset, download; a visible hint says the keys.
  const controls = document.createElement('div');
  controls.className = 'pg-tl-controls';
  const pickLabel = document.createElement('label');
  pickLabel.textContent = 'Step ';
  const picker = document.createElement('select');
  picker.className = 'pg-tl-step';
  // A program that runs several set-ups names each (dist.simulation.configuration): the picker says which.
  const configurationOf = new Map<number, string>();
  for (const d of all)
    if (d.span.configuration && !configurationOf.has(d.span.step))
      configurationOf.set(d.span.step, d.span.configuration);
  for (const s of steps) {
    const c = configurationOf.get(s);
    picker.add(new Option(c ? `step ${s} (${c})` : `step ${s}`, String(s)));
  }
  picker.add(new Option('all steps', 'all'));
  picker.value = String(step);
  pickLabel.append(picker);
  const zoomIn = button('+', 'Zoom in', '+');
  const zoomOut = button('−', 'Zoom out', '-');
  const reset = button('Fit', 'Fit the step to the width', '0');
  const download = button('Download trace', 'Download trace (Chrome trace-event JSON)', '');
  download.removeAttribute('aria-keyshortcuts');
  download.classList.add('pg-download-trace');
  controls.append(pickLabel, zoomIn, zoomOut, reset, download);
  const hint = document.createElement('p');
  hint.className = 'pg-tl-hint';
  hint.textContent =
    'Keys with the timeline focused: + and − zoom, ← and → pan, 0 fits the step; or drag it sideways. ' +
    'Hover or focus a span for its size, algorithm and bandwidth. Times are virtual: the simulated cluster’s clock, not this machine’s.';
  const note = document.createElement('p');
  note.className = 'pg-timeline-note';
  note.setAttribute('role', 'note');
  const viewport = document.createElement('div');
  viewport.className = 'pg-tl-view';
  viewport.tabIndex = 0;
  viewport.setAttribute('role', 'group');
  viewport.setAttribute(
    'aria-label',
    'Virtual timeline: + and − zoom, left and right arrows pan, 0 fits the step',
  );
  const detail = document.createElement('p');
  detail.className = 'pg-tl-detail';
  detail.setAttribute('aria-live', 'polite');
  detail.textContent = 'Hover or focus a span to see what it is.';
  const legend = document.createElement('p');
  legend.className = 'pg-legend';
  container.replaceChildren(controls, hint, note, viewport, detail, legend);

  const truncated = options.arrivals
    ? `This run charged ${total.toLocaleString('en')} spans on ${worldSize.toLocaleString('en')} ranks; the page keeps rank 0’s and, for each step, its fastest and slowest rank’s (${spans.length.toLocaleString('en')} spans), and when every rank finished each step.`
    : total > spans.length
      ? `This run charged ${total.toLocaleString('en')} spans; the timeline holds the first ${spans.length.toLocaleString('en')} (up to ${formatSeconds(extent(spans.map((s) => ({ ...s, step: 0 })))[1])}) so the page stays responsive.`
      : '';

  function selectStep(next: StepChoice): void {
    step = next;
    shown = step === 'all' ? all : all.filter((d) => d.span.step === step);
    bounds = extent(shown.map((d) => d.span));
    if (bounds[1] <= bounds[0]) bounds = [bounds[0], bounds[0] + 1e-9];
    view = { from: bounds[0], to: bounds[1] };
    draw();
  }

  function setView(next: Window): void {
    const width = bounds[1] - bounds[0];
    view = clampWindow(next, bounds[0], bounds[1], width / MAX_ZOOM);
    draw();
  }

  function draw(): void {
    const { rows, summary, arrival } = rankRows(
      shown.map((d) => d.span),
      worldSize,
      formatSeconds,
      options.arrivals?.(step === 'all' ? undefined : step),
    );
    note.textContent = [summary, truncated].filter(Boolean).join(' ');
    note.hidden = !note.textContent;
    const rowOf = new Map(rows.map((r, i) => [r.rank, i]));
    const height = TOP + rows.length * ROW + 18;
    const plot = TIMELINE_WIDTH - LEFT - RIGHT;
    const x = (t: number) => LEFT + ((t - view.from) / (view.to - view.from)) * plot;
    const zoomed = view.to - view.from < (bounds[1] - bounds[0]) * 0.999;
    const svg = svgEl('svg', {
      viewBox: `0 0 ${TIMELINE_WIDTH} ${height}`,
      role: 'img',
      class: 'pg-timeline-svg pg-virtual',
    });
    svg.setAttribute(
      'aria-label',
      `Virtual timeline on ${clusterName}, ${step === 'all' ? 'all steps' : `step ${step}`}: ${formatSeconds(view.from)} to ${formatSeconds(view.to)}${zoomed ? ' (zoomed)' : ''}; per rank a communication lane above a compute lane`,
    );
    const clipId = `pg-tl-clip-${Math.random().toString(36).slice(2)}`;
    const clip = svgEl('clipPath', { id: clipId });
    clip.append(svgEl('rect', { x: LEFT, y: 0, width: plot, height }));
    svg.append(clip);
    rows.forEach((row, i) => {
      const y = TOP + i * ROW;
      for (const [lane, dy, text] of [
        ['comm', 0, `${row.label} · comm`],
        ['compute', LANE + 2, 'compute'],
      ] as const) {
        svg.append(
          svgEl('line', {
            x1: LEFT,
            x2: TIMELINE_WIDTH - RIGHT,
            y1: y + dy + LANE - 1,
            y2: y + dy + LANE - 1,
            class: 'pg-lane',
            'data-lane-line': lane,
          }),
        );
        const label = svgEl('text', { x: 4, y: y + dy + LANE - 3, class: 'pg-lane-label' });
        label.textContent = text;
        svg.append(label);
      }
    });
    // Tick marks and step starts (in the all-steps view) under the bars.
    const axisY = TOP + rows.length * ROW + 12;
    for (const t of ticks(view)) {
      const tx = x(t);
      if (tx < LEFT - 0.5 || tx > TIMELINE_WIDTH - RIGHT + 0.5) continue;
      svg.append(svgEl('line', { x1: tx, x2: tx, y1: TOP, y2: axisY - 9, class: 'pg-tl-tick' }));
      const label = svgEl('text', {
        x: tx,
        y: axisY,
        'text-anchor': 'middle',
        class: 'pg-lane-label',
      });
      label.textContent = formatSeconds(t);
      svg.append(label);
    }
    if (step === 'all') {
      const starts = new Map<number, number>();
      for (const d of shown)
        starts.set(d.span.step, Math.min(starts.get(d.span.step) ?? Infinity, d.span.start));
      for (const [s, t] of starts) {
        const sx = x(t);
        if (sx < LEFT || sx > TIMELINE_WIDTH - RIGHT) continue;
        svg.append(
          svgEl('line', { x1: sx, x2: sx, y1: 2, y2: axisY - 9, class: 'pg-tl-step-mark' }),
        );
        const label = svgEl('text', { x: sx + 2, y: 10, class: 'pg-lane-label' });
        label.textContent = `step ${s}`;
        svg.append(label);
      }
    }
    // A large world's arrival skew: a band from the first rank to finish to the last, a line at each percentile.
    if (arrival) {
      const band = svgEl('g', { 'clip-path': `url(#${clipId})`, class: 'pg-tl-arrival' });
      const [first, last] = [arrival.picks[0]!, arrival.picks.at(-1)!];
      const bx = x(first.time);
      const rect = svgEl('rect', {
        x: bx,
        y: TOP - 2,
        width: Math.max(1, x(last.time) - bx),
        height: axisY - 9 - TOP + 2,
        class: 'pg-tl-arrival-band',
      });
      const title = svgEl('title', {});
      title.textContent = `Arrival skew ${formatSeconds(arrival.skew)}: from ${first.role} rank ${first.rank} to ${last.role} rank ${last.rank}`;
      rect.append(title);
      band.append(rect);
      for (const p of arrival.picks.slice(1, -1)) {
        const line = svgEl('line', {
          x1: x(p.time),
          x2: x(p.time),
          y1: TOP - 2,
          y2: axisY - 9,
          class: 'pg-tl-arrival-mark',
        });
        const t = svgEl('title', {});
        t.textContent = `${p.role}: rank ${p.rank} finished at ${formatSeconds(p.time)}`;
        line.append(t);
        band.append(line);
      }
      svg.append(band);
    }
    const bars = svgEl('g', { 'clip-path': `url(#${clipId})` });
    const inView = shown.filter(
      (d) => rowOf.has(d.span.rank) && d.span.end >= view.from && d.span.start <= view.to,
    );
    const focusable = inView.length <= MAX_FOCUSABLE;
    for (const d of inView) {
      const { span, info } = d;
      const y = TOP + rowOf.get(span.rank)! * ROW + (span.lane === 'compute' ? LANE + 2 : 0);
      const x0 = Math.max(LEFT - 1, x(span.start));
      const x1 = Math.min(TIMELINE_WIDTH - RIGHT + 1, x(span.end));
      const width = Math.max(1, x1 - x0);
      const bar = svgEl('rect', {
        x: x0,
        y,
        width,
        height: LANE - 2,
        rx: 2,
        class: `pg-bar vkind-${info.kind}`,
        'data-lane': span.lane,
        'data-kind': info.kind,
        'data-step': span.step,
        'data-start': span.start,
        'data-end': span.end,
        ...(info.collective ? { 'data-collective': info.collective } : {}),
        ...(focusable ? { tabindex: 0 } : {}),
      });
      bar.style.setProperty('--kind', virtualSpanColor(info.kind, info.collective));
      bar.setAttribute('aria-label', d.description);
      const title = svgEl('title', {});
      title.textContent = d.description;
      bar.append(title);
      bars.append(bar);
      // The label inside the bar when it fits (about 5.6 units a character at 9.5 px).
      if (width > info.label.length * 5.6 + 6) {
        const text = svgEl('text', {
          x: x0 + 3,
          y: y + LANE - 5,
          class: 'pg-bar-text',
          'aria-hidden': 'true',
        });
        text.textContent = info.label;
        bars.append(text);
      }
    }
    svg.append(bars);
    viewport.replaceChildren(svg);
    const kinds = new Map<string, LegendItem>();
    for (const d of shown) {
      const key = d.info.collective ?? d.info.kind;
      if (!kinds.has(key))
        kinds.set(key, {
          className: `vkind-${d.info.kind}`,
          text: `${key} (${d.span.lane === 'comm' ? 'comm' : 'compute'} lane)`,
          color: virtualSpanColor(d.info.kind, d.info.collective),
        });
    }
    legend.replaceChildren();
    for (const { className, text, color } of kinds.values()) {
      const item = document.createElement('span');
      item.className = className;
      if (color) item.style.setProperty('--kind', color);
      item.textContent = text;
      legend.append(item);
    }
    const lanes = document.createElement('span');
    lanes.className = 'pg-legend-plain';
    lanes.textContent = `Each rank: comm lane (NCCL stream) above its compute lane; bars one above the other overlap in time.${focusable ? '' : ' Zoom in to tab through the spans.'}`;
    legend.append(lanes);
    if (arrival) {
      const skew = document.createElement('span');
      skew.className = 'pg-legend-plain';
      skew.textContent = `Shaded band: the arrival skew, from the first rank to finish its last span to the last (${formatSeconds(arrival.skew)}); thin lines at the 50th, 90th and 99th percentile.`;
      legend.append(skew);
    }
  }

  picker.addEventListener('change', () =>
    selectStep(picker.value === 'all' ? 'all' : Number(picker.value)),
  );
  zoomIn.addEventListener('click', () => setView(zoomWindow(view, 2)));
  zoomOut.addEventListener('click', () => setView(zoomWindow(view, 0.5)));
  reset.addEventListener('click', () => setView({ from: bounds[0], to: bounds[1] }));
  viewport.addEventListener('keydown', (e) => {
    const actions: Record<string, () => Window> = {
      '+': () => zoomWindow(view, 2),
      '=': () => zoomWindow(view, 2),
      '-': () => zoomWindow(view, 0.5),
      '−': () => zoomWindow(view, 0.5),
      _: () => zoomWindow(view, 0.5),
      ArrowLeft: () => panWindow(view, -0.2),
      ArrowRight: () => panWindow(view, 0.2),
      '0': () => ({ from: bounds[0], to: bounds[1] }),
      Home: () => ({ from: bounds[0], to: bounds[0] + (view.to - view.from) }),
      End: () => ({ from: bounds[1] - (view.to - view.from), to: bounds[1] }),
    };
    const act = actions[e.key];
    if (!act || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    const focused = document.activeElement;
    setView(act());
    // A focused bar was redrawn: keep the keyboard in the timeline.
    if (focused !== viewport) viewport.focus();
  });
  // Drag to pan: the window moves by the pointer's share of the drawn width.
  let dragFrom: { x: number; view: Window } | null = null;
  viewport.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    dragFrom = { x: e.clientX, view };
  });
  viewport.addEventListener('pointermove', (e) => {
    if (!dragFrom) return;
    const svg = viewport.querySelector('svg');
    const px = svg
      ? svg.getBoundingClientRect().width * ((TIMELINE_WIDTH - LEFT - RIGHT) / TIMELINE_WIDTH)
      : 0;
    if (px <= 0 || Math.abs(e.clientX - dragFrom.x) < 3) return;
    const shift = -(e.clientX - dragFrom.x) / px;
    setView(panWindow(dragFrom.view, shift));
  });
  for (const end of ['pointerup', 'pointerleave', 'pointercancel'] as const)
    viewport.addEventListener(end, () => (dragFrom = null));
  const show = (e: Event) => {
    const bar = (e.target as Element | null)?.closest?.('.pg-bar');
    const label = bar?.getAttribute('aria-label');
    if (label) detail.textContent = label;
  };
  viewport.addEventListener('mouseover', show);
  viewport.addEventListener('focusin', show);
  download.addEventListener('click', () => {
    const trace = chromeTrace(
      all.map((d) => d.span),
      {
        worldSize,
        cluster: clusterName,
        ...(options.gpusPerNode ? { gpusPerNode: options.gpusPerNode } : {}),
        ...(options.arrivals ? { arrival: options.arrivals() } : {}),
      },
    );
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([JSON.stringify(trace)], { type: 'application/json' }));
    a.download = 'ranks-virtual-trace.json';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 30_000);
  });
  selectStep(step);
}
