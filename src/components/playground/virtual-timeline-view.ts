/**
 * Draws a simulated run in virtual time: per rank a communication lane above a compute lane, so
 * overlap shows as bars stacked in time and exposed communication as gaps in the compute lane.
 */
const SVG = 'http://www.w3.org/2000/svg';
const LANE = 11;
const RANK = 2 * LANE + 6;
const LEFT = 56;
/** Bars a keyboard reader can tab through; a training run's hundreds would be a tab trap. */
const MAX_FOCUSABLE = 100;

/** The fields of a run's VirtualTraceEvent the timeline draws. */
export interface VirtualSpan {
  rank: number;
  lane: 'compute' | 'comm';
  name: string;
  /** Virtual seconds since the run started. */
  start: number;
  end: number;
}

/** Seconds as the page prints virtual times: s, ms or µs with three significant figures. */
export function formatSeconds(s: number): string {
  const abs = Math.abs(s);
  if (abs >= 1) return `${s.toPrecision(3)} s`;
  if (abs >= 1e-3) return `${(s * 1e3).toPrecision(3)} ms`;
  return `${(s * 1e6).toPrecision(3)} µs`;
}

function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export function renderVirtualTimeline(
  container: HTMLElement,
  spans: readonly VirtualSpan[],
  worldSize: number,
  clusterName: string,
  total = spans.length,
): void {
  container.replaceChildren();
  if (spans.length === 0) {
    const p = document.createElement('p');
    p.className = 'pg-timeline-empty';
    p.textContent = 'Nothing was charged to the virtual clocks, so the timeline is empty.';
    container.append(p);
    return;
  }
  let t1 = 0;
  for (const s of spans) t1 = Math.max(t1, s.end);
  const span = t1 > 0 ? t1 : 1e-9;
  const width = 640;
  const height = worldSize * RANK + 20;
  const x = (t: number) => LEFT + (t / span) * (width - LEFT - 8);
  const svg = el('svg', {
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    class: 'pg-timeline-svg pg-virtual',
  });
  svg.setAttribute(
    'aria-label',
    `Virtual timeline of ${worldSize} ranks on ${clusterName}: ${formatSeconds(span)}; per rank a communication lane above a compute lane`,
  );
  for (let r = 0; r < worldSize; r++) {
    const y = r * RANK + 2;
    const label = el('text', { x: 4, y: y + LANE + 3, class: 'pg-lane-label' });
    label.textContent = `rank ${r}`;
    svg.append(
      el('line', { x1: LEFT, x2: width - 8, y1: y + LANE + 1, y2: y + LANE + 1, class: 'pg-lane' }),
      label,
    );
  }
  const focusable = spans.length <= MAX_FOCUSABLE;
  for (const s of spans) {
    const y = s.rank * RANK + 2 + (s.lane === 'compute' ? LANE + 2 : 0);
    const desc = `rank ${s.rank}, ${s.lane === 'comm' ? 'communication' : 'compute'}: ${s.name}, ${formatSeconds(s.start)} to ${formatSeconds(s.end)} (${formatSeconds(s.end - s.start)})`;
    const bar = el('rect', {
      x: x(s.start),
      y,
      width: Math.max(1, x(s.end) - x(s.start)),
      height: LANE - 1,
      rx: 2,
      class: `pg-bar lane-${s.lane}`,
      'data-lane': s.lane,
      ...(focusable ? { tabindex: 0 } : {}),
    });
    bar.setAttribute('aria-label', desc);
    const title = el('title', {});
    title.textContent = desc;
    bar.append(title);
    svg.append(bar);
  }
  const axis = el('text', {
    x: width - 8,
    y: height - 3,
    'text-anchor': 'end',
    class: 'pg-lane-label',
  });
  axis.textContent = `${formatSeconds(span)} (virtual)`;
  const origin = el('text', { x: LEFT, y: height - 3, class: 'pg-lane-label' });
  origin.textContent = '0';
  svg.append(origin, axis);
  const legend = document.createElement('p');
  legend.className = 'pg-legend';
  for (const [lane, text] of [
    ['comm', 'communication (upper lane)'],
    ['compute', 'compute (lower lane)'],
  ] as const) {
    const item = document.createElement('span');
    item.className = `lane-${lane}`;
    item.textContent = text;
    legend.append(item);
  }
  container.append(svg, legend);
  if (total > spans.length) {
    const note = document.createElement('p');
    note.className = 'pg-timeline-note';
    note.setAttribute('role', 'note');
    note.textContent = `This run charged ${total.toLocaleString('en')} spans; the timeline draws the first ${spans.length.toLocaleString('en')} (up to ${formatSeconds(t1)}) so the page stays responsive.`;
    container.prepend(note);
  }
}
