import { describe, expect, it } from 'vitest';
import {
  MAX_RANK_ROWS,
  clampWindow,
  defaultStep,
  panWindow,
  rankRows,
  stepNumbers,
  ticks,
  zoomWindow,
} from '../../../src/components/playground/virtual-timeline-model.ts';

const fmt = (s: number) => `${s}s`;

describe('virtual timeline model', () => {
  it('lists steps and opens on the last reported one', () => {
    const spans = [3, 0, 1, 2, 1].map((step) => ({ rank: 0, step, start: step, end: step + 1 }));
    const steps = stepNumbers(spans);
    expect(steps).toEqual([0, 1, 2, 3]);
    // Step 3 holds only a trailing partial step (not in the report): open on step 2.
    expect(defaultStep(steps, [0, 1, 2])).toBe(2);
    expect(defaultStep(steps, [])).toBe(3);
    // Step 2 is a forward + backward alone (no comm): open on the last reported step that communicated.
    expect(defaultStep(steps, [0, 1, 2], new Set([0, 1]))).toBe(1);
    expect(defaultStep(steps, [0, 1, 2], new Set())).toBe(2);
    expect(defaultStep([], [])).toBe('all');
  });

  it('draws every rank up to MAX_RANK_ROWS', () => {
    const { rows, summary } = rankRows([], MAX_RANK_ROWS, fmt);
    expect(rows).toHaveLength(MAX_RANK_ROWS);
    expect(rows[3]).toEqual({ rank: 3, label: 'rank 3' });
    expect(summary).toBeUndefined();
  });

  it('draws a 1,024-rank world as rank 0 and its arrival percentiles, the slowest named', () => {
    const spans = Array.from({ length: 1024 }, (_, r) => ({
      rank: r,
      step: 0,
      start: 0,
      // Rank 700 is the straggler; rank 5 the fastest; the rest arrive in rank order.
      end: r === 700 ? 9 : r === 5 ? 0.5 : 1 + r / 10_000,
    }));
    const { rows, summary, arrival } = rankRows(spans, 1024, fmt);
    // Nearest-rank percentiles of 1,024 arrivals: index round(q × 1023) of the arrivals in order (rank 700 last).
    expect(rows.map((r) => r.label)).toEqual([
      'rank 0',
      'fastest r5',
      'p50 r512',
      'p90 r922',
      'p99 r1014',
      'slowest r700',
    ]);
    expect(arrival!.skew).toBe(8.5);
    expect(summary).toContain('slowest rank 700 at 9s');
    expect(summary).toContain('1,024 ranks');
  });

  it('given every rank’s arrival, draws only the ranks whose spans were kept and the percentiles as the band', () => {
    const all = Array.from({ length: 64 }, (_, r) => ({ rank: r, step: 0, start: 0, end: r }));
    const kept = all.filter((s) => s.rank === 0 || s.rank === 1 || s.rank === 63);
    const { rows, arrival } = rankRows(kept, 64, fmt, rankRows(all, 64, fmt).arrival);
    expect(rows.map((r) => r.label)).toEqual(['fastest r0', 'slowest r63']);
    expect(arrival!.picks.map((p) => p.rank)).toEqual([0, 32, 57, 62, 63]);
  });

  it('zooms about a point, pans, and clamps inside the extent', () => {
    const w = zoomWindow({ from: 0, to: 10 }, 2);
    expect(w).toEqual({ from: 2.5, to: 7.5 });
    expect(zoomWindow({ from: 0, to: 10 }, 2, 0)).toEqual({ from: 0, to: 5 });
    expect(panWindow(w, 0.2)).toEqual({ from: 3.5, to: 8.5 });
    expect(clampWindow({ from: 8, to: 13 }, 0, 10, 0.01)).toEqual({ from: 5, to: 10 });
    expect(clampWindow({ from: -5, to: 30 }, 0, 10, 0.01)).toEqual({ from: 0, to: 10 });
    expect(clampWindow({ from: 1, to: 1.000001 }, 0, 10, 0.01).to).toBeCloseTo(1.01);
  });

  it('puts ticks at round times inside the window', () => {
    expect(ticks({ from: 0, to: 0.01 })).toEqual([0, 0.002, 0.004, 0.006, 0.008, 0.01]);
    expect(ticks({ from: 0.0013, to: 0.0031 })).toEqual([0.0015, 0.002, 0.0025, 0.003]);
  });
});
