import type { TraceEvent } from '../../../playground/cluster/protocol.ts';
import { TRACE_KIND_COLORS } from './trace-kind-colors.ts';

const SVG = 'http://www.w3.org/2000/svg';
const LANE = 22;
const LEFT = 56;

const fmtBytes = (b: number) =>
  b >= 1 << 20
    ? `${(b / (1 << 20)).toFixed(1)} MiB`
    : b >= 1024
      ? `${(b / 1024).toFixed(1)} KiB`
      : `${b} B`;
const fmtMs = (ms: number) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(0)} µs`);

function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/**
 * Draws a run's collective trace: one lane per rank, each collective (or ring step) a bar from its
 * start to its end, coloured by kind; hovering or focusing a bar shows kind, bytes and duration.
 */
export function renderTimeline(
  container: HTMLElement,
  trace: TraceEvent[],
  worldSize: number,
  total = trace.length,
): void {
  container.replaceChildren();
  if (trace.length === 0) {
    const p = document.createElement('p');
    p.className = 'pg-timeline-empty';
    p.textContent = 'No collectives ran, so the timeline is empty.';
    container.append(p);
    return;
  }
  // A loop, not Math.min(...spread): a spread of 100 k arguments overflows the call stack.
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const e of trace) {
    t0 = Math.min(t0, e.start);
    t1 = Math.max(t1, e.end);
  }
  const span = Math.max(t1 - t0, 1e-3);
  const width = 640;
  const height = worldSize * LANE + 24;
  const x = (t: number) => LEFT + ((t - t0) / span) * (width - LEFT - 8);
  const svg = el('svg', {
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    class: 'pg-timeline-svg',
  });
  svg.setAttribute('aria-label', `Collective timeline of ${worldSize} ranks over ${fmtMs(span)}`);
  for (let r = 0; r < worldSize; r++) {
    const y = r * LANE + 4;
    const label = el('text', { x: 4, y: y + 14, class: 'pg-lane-label' });
    label.textContent = `rank ${r}`;
    svg.append(
      el('line', { x1: LEFT, x2: width - 8, y1: y + LANE / 2, y2: y + LANE / 2, class: 'pg-lane' }),
      label,
    );
  }
  const kinds = new Set<TraceEvent['kind']>();
  // Focusable bars help keyboard readers on small traces; a training run's hundreds would be a tab trap.
  const focusable = trace.length <= 100;
  for (const e of trace) {
    kinds.add(e.kind);
    // Compute spans (forward, backward, step) take the lower half of a lane, collectives the upper: overlap shows as stacked bars.
    const half = (LANE - 6) / 2;
    const y = e.rank * LANE + 3 + (e.kind === 'compute' ? half + 1 : 0);
    const w = Math.max(2, x(e.end) - x(e.start));
    const bytes = e.kind === 'compute' ? '' : `, ${fmtBytes(e.bytes)}`;
    const desc = `rank ${e.rank}: ${e.kind === 'compute' ? `compute${e.label ? ` (${e.label})` : ''}` : e.kind}${e.algorithm ? ` (${e.algorithm}${e.step !== undefined ? `, step ${e.step}` : ''})` : ''}${e.peer !== undefined ? ` with rank ${e.peer}` : ''}${bytes}, ${fmtMs(e.end - e.start)}`;
    const bar = el('rect', {
      x: x(e.start),
      y,
      width: w,
      height: half,
      rx: 2,
      class: `pg-bar kind-${e.kind}`,
      ...(focusable ? { tabindex: 0 } : {}),
    });
    bar.style.setProperty('--kind', TRACE_KIND_COLORS[e.kind]);
    bar.setAttribute('aria-label', desc);
    const title = el('title', {});
    title.textContent = desc;
    bar.append(title);
    svg.append(bar);
  }
  const axis = el('text', {
    x: width - 8,
    y: height - 4,
    'text-anchor': 'end',
    class: 'pg-lane-label',
  });
  axis.textContent = fmtMs(span);
  svg.append(axis);
  const legend = document.createElement('p');
  legend.className = 'pg-legend';
  for (const k of kinds) {
    const item = document.createElement('span');
    item.className = `kind-${k}`;
    item.style.setProperty('--kind', TRACE_KIND_COLORS[k]);
    item.textContent = k;
    legend.append(item);
  }
  container.append(svg, legend);
  if (total > trace.length) {
    const note = document.createElement('p');
    note.className = 'pg-timeline-note';
    note.setAttribute('role', 'note');
    note.textContent = `This run traced ${total.toLocaleString('en')} collective steps; the timeline draws the first ${trace.length.toLocaleString('en')} (up to ${fmtMs(t1 - t0)}) so the page stays responsive.`;
    container.prepend(note);
  }
}
