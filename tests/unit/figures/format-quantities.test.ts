import { describe, expect, it } from 'vitest';
import {
  fmtBytes,
  fmtGB,
  fmtInt,
  fmtMiB,
  fmtParams,
  fmtPercent,
  fmtRatio,
  fmtSeconds,
} from '../../../src/lib/figures/format-quantities';

describe('formatters', () => {
  it('GB: decimal, trailing zeros trimmed', () => {
    expect(fmtGB(227.5e9)).toBe('227.5 GB');
    expect(fmtGB(840e9)).toBe('840 GB');
    expect(fmtGB(1.875e9)).toBe('1.9 GB');
    expect(fmtGB(1.875e9, 2)).toBe('1.88 GB');
  });
  it('bytes, MiB, seconds, params, ratios, percentages, integers', () => {
    expect(fmtBytes(14e9)).toBe('14 GB');
    expect(fmtBytes(512)).toBe('512 B');
    expect(fmtMiB(25 * 2 ** 20)).toBe('25 MiB');
    expect(fmtSeconds(0.0123)).toBe('12.3 ms');
    expect(fmtSeconds(3.4e-6)).toBe('3.4 µs');
    expect(fmtSeconds(2)).toBe('2 s');
    expect(fmtParams(7.5e9)).toBe('7.5B');
    expect(fmtParams(70e9)).toBe('70B');
    expect(fmtRatio(1.5)).toBe('1.5×');
    expect(fmtPercent(0.875, 1)).toBe('87.5 %');
    expect(fmtInt(1234567)).toBe('1,234,567');
  });
});
