/**
 * Markup for one frame of the ring all-reduce animation, shared by the server render and the
 * client element so both draw the same thing. Input is a schedule in TraceEvent shape.
 */
import {
  chunkReceived,
  contributors,
  phaseOf,
  popcount,
  ringFrames,
  type RingTraceEvent,
} from '../../lib/figures/ring-schedule';

export interface RingFrame {
  step: number;
  steps: number;
  status: string;
  ringSvg: string;
  gridHtml: string;
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A one-line description of what happens in `step` (0 = before any step). */
export function stepStatus(n: number, step: number, events: readonly RingTraceEvent[]): string {
  const steps = 2 * (n - 1);
  if (step === 0)
    return `Before step 1 of ${steps}: each rank holds only its own input in all ${n} chunks.`;
  const s = step - 1;
  const phase = phaseOf(s, n);
  const bytes = events.find((e) => e.step === s)?.bytes ?? 0;
  const verb = phase === 'reduce-scatter' ? 'adds it to its copy' : 'replaces its copy';
  const done =
    s === n - 2
      ? ' Reduce-scatter done: each rank owns one finished chunk.'
      : s === steps - 1
        ? ' All-gather done: every rank holds every finished chunk.'
        : '';
  return `Step ${step} of ${steps} (${phase}): every rank receives one chunk of ${bytes} bytes (D/n) from its left neighbour and ${verb}.${done}`;
}

function ringSvg(n: number, step: number, events: readonly RingTraceEvent[]): string {
  const size = 220,
    c = size / 2,
    R = 80,
    r = 20;
  const pos = (k: number) => {
    const a = (2 * Math.PI * k) / n - Math.PI / 2;
    return [c + R * Math.cos(a), c + R * Math.sin(a)] as const;
  };
  const arrows: string[] = [];
  if (step > 0) {
    for (const e of events.filter((x) => x.step === step - 1)) {
      const [x1, y1] = pos(e.peer!),
        [x2, y2] = pos(e.rank);
      const dx = x2 - x1,
        dy = y2 - y1,
        len = Math.hypot(dx, dy),
        ux = dx / len,
        uy = dy / len;
      const [sx, sy, ex, ey] = [
        x1 + ux * (r + 2),
        y1 + uy * (r + 2),
        x2 - ux * (r + 6),
        y2 - uy * (r + 6),
      ];
      const [mx, my] = [(sx + ex) / 2 - uy * 12, (sy + ey) / 2 + ux * 12];
      arrows.push(
        `<line x1="${sx.toFixed(1)}" y1="${sy.toFixed(1)}" x2="${ex.toFixed(1)}" y2="${ey.toFixed(1)}" class="ring-arrow" marker-end="url(#ring-head)"/>` +
          `<text x="${mx.toFixed(1)}" y="${my.toFixed(1)}" class="ring-chunk-label">c${chunkReceived(e.rank, e.step!, n)}</text>`,
      );
    }
  }
  const nodes = Array.from({ length: n }, (_, k) => {
    const [x, y] = pos(k);
    return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r}" class="ring-node" style="stroke: var(--rank-${k % 8})"/><text x="${x.toFixed(1)}" y="${y.toFixed(1)}" class="ring-node-label">r${k}</text>`;
  });
  const what =
    step === 0 ? 'no transfers yet' : 'each rank sends one chunk to its right-hand neighbour';
  return `<svg viewBox="0 0 ${size} ${size}" role="img" aria-label="${esc(`Ring of ${n} ranks; ${what}`)}"><defs><marker id="ring-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="ring-head"/></marker></defs>${arrows.join('')}${nodes.join('')}</svg>`;
}

function gridHtml(n: number, step: number, frames: number[][][]): string {
  const now = frames[step]!,
    before = frames[Math.max(0, step - 1)]!;
  const full = (1 << n) - 1;
  const head = `<tr><th scope="col">rank</th>${Array.from({ length: n }, (_, c) => `<th scope="col">chunk ${c}</th>`).join('')}</tr>`;
  const body = now
    .map(
      (row, rank) =>
        `<tr><th scope="row">rank ${rank}</th>${row
          .map((mask, c) => {
            const changed = step > 0 && mask !== before[rank]![c];
            const share = Math.round((popcount(mask) / n) * 100);
            const label = mask === full ? `all ✓` : contributors(mask, n);
            const cls = ['ring-cell', mask === full ? 'is-full' : '', changed ? 'is-changed' : '']
              .filter(Boolean)
              .join(' ');
            return `<td class="${cls}" style="--share: ${share}%">${label}${changed ? '<span class="visually-hidden"> (updated this step)</span>' : ''}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('');
  return `<table class="ring-grid"><caption>Which ranks' inputs each copy of each chunk contains</caption><thead>${head}</thead><tbody>${body}</tbody></table>`;
}

/** Everything needed to draw frame `step` (0..2(n−1)) of a ring all-reduce over n ranks. */
export function ringFrame(
  n: number,
  step: number,
  events: readonly RingTraceEvent[],
  frames = ringFrames(n, events),
): RingFrame {
  const steps = 2 * (n - 1);
  const s = Math.max(0, Math.min(steps, step));
  return {
    step: s,
    steps,
    status: stepStatus(n, s, events),
    ringSvg: ringSvg(n, s, events),
    gridHtml: gridHtml(n, s, frames),
  };
}
