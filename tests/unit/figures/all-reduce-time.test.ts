import { describe, expect, it } from 'vitest';
import {
  busBandwidthFactor,
  ringAllReduceSeconds,
  ringAllReduceTerms,
  ringHalfSeconds,
} from '../../../src/lib/figures/all-reduce-time';

const link = { alpha: 5e-6, bandwidth: 50e9 };

describe('α–β model of the ring all-reduce', () => {
  it('T = 2(n−1)α + 2(n−1)/n · D/B', () => {
    expect(ringAllReduceSeconds(1e9, 8, link)).toBeCloseTo(14 * 5e-6 + (14 / 8) * (1e9 / 50e9), 15);
  });
  it('is zero on one rank and equals two halves (reduce-scatter + all-gather)', () => {
    expect(ringAllReduceSeconds(1e9, 1, link)).toBe(0);
    expect(ringAllReduceSeconds(1e9, 8, link)).toBeCloseTo(2 * ringHalfSeconds(1e9, 8, link), 15);
  });
  it('the bandwidth term stays below 2D/B as n grows; the latency term grows linearly', () => {
    const big = ringAllReduceTerms(1e9, 1024, link);
    expect(big.transfer).toBeLessThan((2 * 1e9) / 50e9);
    expect(
      ringAllReduceTerms(1e9, 9, link).latency / ringAllReduceTerms(1e9, 5, link).latency,
    ).toBe(2);
  });
  it('nccl-tests bus bandwidth factors (PERFORMANCE.md): 2(n−1)/n, (n−1)/n, 1', () => {
    expect(busBandwidthFactor('all-reduce', 8)).toBe(1.75);
    expect(busBandwidthFactor('reduce-scatter', 8)).toBe(0.875);
    expect(busBandwidthFactor('all-gather', 4)).toBe(0.75);
    expect(busBandwidthFactor('broadcast', 8)).toBe(1);
  });
});
