import type { TraceEvent } from '../../../playground/cluster/protocol.ts';
import {
  TIMELINE_LEFT,
  TIMELINE_WIDTH,
  axisText,
  barsFocusable,
  describedBar,
  laneSvg,
  showEmptyTimeline,
  showTimeline,
} from './timeline-lanes.ts';
import { TRACE_KIND_COLORS } from './trace-kind-colors.ts';

const LANE = 22;

const fmtBytes = (b: number) =>
  b >= 1 << 20
    ? `${(b / (1 << 20)).toFixed(1)} MiB`
    : b >= 1024
      ? `${(b / 1024).toFixed(1)} KiB`
      : `${b} B`;
const fmtMs = (ms: number) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(0)} µs`);

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
  if (trace.length === 0) {
    showEmptyTimeline(container, 'No collectives ran, so the timeline is empty.');
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
  const height = worldSize * LANE + 24;
  const x = (t: number) => TIMELINE_LEFT + ((t - t0) / span) * (TIMELINE_WIDTH - TIMELINE_LEFT - 8);
  const svg = laneSvg(
    worldSize,
    height,
    { row: LANE, top: 4, labelY: 14, lineY: LANE / 2 },
    'pg-timeline-svg',
    `Collective timeline of ${worldSize} ranks over ${fmtMs(span)}`,
  );
  const kinds = new Set<TraceEvent['kind']>();
  const focusable = barsFocusable(trace.length);
  for (const e of trace) {
    kinds.add(e.kind);
    // Compute spans (forward, backward, step) take the lower half of a lane, collectives the upper: overlap shows as stacked bars.
    const half = (LANE - 6) / 2;
    const y = e.rank * LANE + 3 + (e.kind === 'compute' ? half + 1 : 0);
    const bytes = e.kind === 'compute' ? '' : `, ${fmtBytes(e.bytes)}`;
    const desc = `rank ${e.rank}: ${e.kind === 'compute' ? `compute${e.label ? ` (${e.label})` : ''}` : e.kind}${e.algorithm ? ` (${e.algorithm}${e.step !== undefined ? `, step ${e.step}` : ''})` : ''}${e.peer !== undefined ? ` with rank ${e.peer}` : ''}${bytes}, ${fmtMs(e.end - e.start)}`;
    const bar = describedBar(
      {
        x: x(e.start),
        y,
        width: Math.max(2, x(e.end) - x(e.start)),
        height: half,
        rx: 2,
        class: `pg-bar kind-${e.kind}`,
      },
      desc,
      focusable,
    );
    bar.style.setProperty('--kind', TRACE_KIND_COLORS[e.kind]);
    svg.append(bar);
  }
  svg.append(axisText(TIMELINE_WIDTH - 8, height - 4, `${fmtMs(span)} (real time)`, true));
  showTimeline(
    container,
    svg,
    [...kinds].map((k) => ({ className: `kind-${k}`, text: k, color: TRACE_KIND_COLORS[k] })),
    total > trace.length
      ? `This run traced ${total.toLocaleString('en')} collective steps; the timeline draws the first ${trace.length.toLocaleString('en')} (up to ${fmtMs(t1 - t0)}) so the page stays responsive.`
      : undefined,
  );
}
