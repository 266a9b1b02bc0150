import { describe, expect, it } from 'vitest';
import { calibrationMarkdown, calibrationRows, TOLERANCE } from './calibration-table.ts';
import { FITTED_POINTS, PUBLISHED_POINTS, UNMODELLED_POINTS } from './published-points.ts';

describe('calibration against published NCCL measurements', () => {
  it.each(calibrationRows().map((r) => [r.point.id, r] as const))(
    '%s is within tolerance',
    (_id, r) => {
      expect(
        Math.abs(r.error),
        `published ${r.point.published}, predicted ${r.predicted.toFixed(2)} (${r.point.source})`,
      ).toBeLessThanOrEqual(r.tolerance);
    },
  );

  it('holds bandwidth points to ±25 % and latency points to ±50 %, and has both kinds on one and several nodes', () => {
    expect(TOLERANCE).toEqual({ bandwidth: 0.25, latency: 0.5 });
    const kinds = (k: string, multi: boolean) =>
      PUBLISHED_POINTS.filter((p) => p.kind === k && p.model.nodes > 1 === multi).length;
    expect(kinds('bandwidth', false)).toBeGreaterThanOrEqual(3);
    expect(kinds('bandwidth', true)).toBeGreaterThanOrEqual(3);
    expect(kinds('latency', false)).toBeGreaterThanOrEqual(1);
    expect(kinds('latency', true)).toBeGreaterThanOrEqual(1);
  });

  it('every point names its source and quotes the published line', () => {
    for (const p of [...PUBLISHED_POINTS, ...FITTED_POINTS, ...UNMODELLED_POINTS]) {
      expect(p.source, p.id).toMatch(/^https:\/\//);
      expect(p.quote.length, p.id).toBeGreaterThan(10);
    }
    for (const p of [...PUBLISHED_POINTS, ...FITTED_POINTS]) {
      if (p.derived) expect(p.derived.length, p.id).toBeGreaterThan(10);
      else expect(p.quote, p.id).toContain(String(p.published));
    }
    for (const u of UNMODELLED_POINTS) expect(u.reason.length, u.id).toBeGreaterThan(30);
  });

  it('the fitted A100 LL hop reproduces the measurement it was read from', () => {
    for (const r of calibrationRows(FITTED_POINTS)) expect(Math.abs(r.error)).toBeLessThan(0.05);
  });

  it('prints a table with every point', () => {
    const table = calibrationMarkdown();
    for (const p of [...PUBLISHED_POINTS, ...FITTED_POINTS, ...UNMODELLED_POINTS])
      expect(table).toContain(p.id);
  });
});
