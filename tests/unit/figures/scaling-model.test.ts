import { describe, expect, it } from 'vitest';
import {
  BACKWARD_SHARE,
  defaultScalingInputs,
  scalingCurve,
  scalingPoint,
  SCALING_DEFAULTS,
} from '../../../src/lib/figures/scaling-model';

describe('α–β scaling model', () => {
  const link = { alpha: 1e-5, bandwidth: 1e9 };
  it('one rank runs at the ideal rate: nothing to all-reduce', () => {
    const p = scalingPoint(1, {
      samplesPerRank: 10,
      computeSeconds: 0.5,
      gradientBytes: 1e9,
      link,
      overlap: 0,
    });
    expect(p.throughput).toBe(20);
    expect(p.efficiency).toBe(1);
  });
  it('without overlap, 4 ranks pay compute + 6α + 1.5·D/bandwidth per step (hand arithmetic)', () => {
    const p = scalingPoint(4, {
      samplesPerRank: 10,
      computeSeconds: 0.5,
      gradientBytes: 1e8,
      link,
      overlap: 0,
    });
    const step = 0.5 + 6e-5 + 0.15;
    expect(p.throughput).toBeCloseTo(40 / step, 9);
    expect(p.ideal).toBe(80);
  });
  it('full overlap hides communication up to the backward time, never more (backward = 4/6 of compute)', () => {
    expect(BACKWARD_SHARE).toBe(4 / 6);
    const hidden = scalingPoint(4, {
      samplesPerRank: 10,
      computeSeconds: 0.5,
      gradientBytes: 1e8,
      link,
      overlap: 1,
    });
    expect(hidden.efficiency).toBe(1);
    const tooBig = scalingPoint(4, {
      samplesPerRank: 10,
      computeSeconds: 0.1,
      gradientBytes: 1e8,
      link,
      overlap: 1,
    });
    expect(tooBig.throughput).toBeCloseTo(40 / (0.1 + 0.15 + 6e-5 - 0.1 * (4 / 6)), 9);
  });
  it('the default fully overlapped at 8 ranks keeps about 89 %, not 100 %: backward is shorter than the all-reduce', () => {
    const p = scalingPoint(8, defaultScalingInputs(1));
    const backward = SCALING_DEFAULTS.computeSeconds * (4 / 6);
    expect(p.commSeconds).toBeGreaterThan(backward);
    expect(p.efficiency).toBeCloseTo(0.25 / (0.25 + p.commSeconds - backward), 12);
    expect(p.efficiency).toBeGreaterThan(0.88);
    expect(p.efficiency).toBeLessThan(0.89);
  });
  it('the default (355M fp32 gradients over 100 GbE, 0.25 s compute) reaches about 56 % at 8 ranks', () => {
    expect(SCALING_DEFAULTS.params * SCALING_DEFAULTS.bytesPerGradient).toBe(1.42e9);
    const p = scalingCurve([8], defaultScalingInputs())[0]!;
    expect(p.commSeconds).toBeCloseTo(14 * 9.6e-6 + (1.75 * 1.42e9) / 12.5e9, 9);
    expect(p.efficiency).toBeCloseTo(0.25 / (0.25 + p.commSeconds), 12);
    expect(p.efficiency).toBeGreaterThan(0.55);
    expect(p.efficiency).toBeLessThan(0.57);
  });
  it('efficiency falls monotonically with n and throughput still rises', () => {
    const c = scalingCurve(SCALING_DEFAULTS.worldSizes, defaultScalingInputs());
    for (let i = 1; i < c.length; i++) {
      expect(c[i]!.efficiency).toBeLessThanOrEqual(c[i - 1]!.efficiency);
      expect(c[i]!.throughput).toBeGreaterThan(c[i - 1]!.throughput);
    }
  });
});
