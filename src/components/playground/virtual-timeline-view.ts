/**
 * Draws a simulated run in virtual time: per rank a communication lane above a compute lane, so
 * overlap shows as bars stacked in time and exposed communication as gaps in the compute lane.
 */
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

const LANE = 11;
const RANK = 2 * LANE + 6;

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

export function renderVirtualTimeline(
  container: HTMLElement,
  spans: readonly VirtualSpan[],
  worldSize: number,
  clusterName: string,
  total = spans.length,
): void {
  if (spans.length === 0) {
    showEmptyTimeline(
      container,
      'Nothing was charged to the virtual clocks, so the timeline is empty.',
    );
    return;
  }
  let t1 = 0;
  for (const s of spans) t1 = Math.max(t1, s.end);
  const span = t1 > 0 ? t1 : 1e-9;
  const height = worldSize * RANK + 20;
  const x = (t: number) => TIMELINE_LEFT + (t / span) * (TIMELINE_WIDTH - TIMELINE_LEFT - 8);
  const svg = laneSvg(
    worldSize,
    height,
    { row: RANK, top: 2, labelY: LANE + 3, lineY: LANE + 1 },
    'pg-timeline-svg pg-virtual',
    `Virtual timeline of ${worldSize} ranks on ${clusterName}: ${formatSeconds(span)}; per rank a communication lane above a compute lane`,
  );
  const focusable = barsFocusable(spans.length);
  for (const s of spans) {
    const y = s.rank * RANK + 2 + (s.lane === 'compute' ? LANE + 2 : 0);
    const desc = `rank ${s.rank}, ${s.lane === 'comm' ? 'communication' : 'compute'}: ${s.name}, ${formatSeconds(s.start)} to ${formatSeconds(s.end)} (${formatSeconds(s.end - s.start)})`;
    const bar = describedBar(
      {
        x: x(s.start),
        y,
        width: Math.max(1, x(s.end) - x(s.start)),
        height: LANE - 1,
        rx: 2,
        class: `pg-bar lane-${s.lane}`,
        'data-lane': s.lane,
      },
      desc,
      focusable,
    );
    svg.append(bar);
  }
  svg.append(
    axisText(TIMELINE_LEFT, height - 3, '0', false),
    axisText(TIMELINE_WIDTH - 8, height - 3, `${formatSeconds(span)} (virtual)`, true),
  );
  showTimeline(
    container,
    svg,
    [
      { className: 'lane-comm', text: 'communication (upper lane)' },
      { className: 'lane-compute', text: 'compute (lower lane)' },
    ],
    total > spans.length
      ? `This run charged ${total.toLocaleString('en')} spans; the timeline draws the first ${spans.length.toLocaleString('en')} (up to ${formatSeconds(t1)}) so the page stays responsive.`
      : undefined,
  );
}
