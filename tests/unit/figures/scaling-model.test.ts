import { describe, expect, it } from 'vitest';
import {
  BACKWARD_SHARE,
  defaultScalingInputs,
  scalingCurve,
  scalingPoint,
  SCALING_DEFAULTS,
} from '../../../src/lib/figures/scaling-model';
import { computeSeconds, shapeForWorld } from '../../../src/lib/figures/efficiency';
import { predictCollective } from '../../../playground/simulation/index.ts';

describe('scaling model on a cluster preset', () => {
  const base = {
    presetId: 'a100-100gbe',
    samplesPerRank: 10,
    forwardSeconds: 0.1,
    backwardSeconds: 0.2,
    gradientBytes: 1e8,
  };
  it('one rank runs at the ideal rate: nothing to all-reduce', () => {
    const p = scalingPoint(1, { ...base, overlap: 0 });
    expect(p.throughput).toBeCloseTo(10 / 0.3, 12);
    expect(p.efficiency).toBe(1);
  });
  it('the all-reduce is the cluster model’s on n ranks, filling a node first', () => {
    const p = scalingPoint(16, { ...base, overlap: 0 });
    const want = predictCollective(shapeForWorld('a100-100gbe', 16), 'all-reduce', 1e8).seconds;
    expect(p.commSeconds).toBe(want);
    expect(p.nodes).toBe(2);
    expect(p.throughput).toBeCloseTo(160 / (0.3 + want), 9);
  });
  it('full overlap hides communication up to the backward time, never more (backward = 4/6 of compute)', () => {
    expect(BACKWARD_SHARE).toBe(4 / 6);
    const small = scalingPoint(8, { ...base, overlap: 1 });
    expect(small.commSeconds).toBeLessThan(0.2);
    expect(small.efficiency).toBe(1);
    const big = scalingPoint(16, { ...base, gradientBytes: 4e9, overlap: 1 });
    expect(big.commSeconds).toBeGreaterThan(0.2);
    expect(big.throughput).toBeCloseTo(160 / (0.3 + big.commSeconds - 0.2), 9);
  });
  it('the default: GPT-2 medium, fp32 gradients, 8 × 1,024 tokens per rank at 40 % MFU of an A100', () => {
    const d = defaultScalingInputs(0);
    expect(d.gradientBytes).toBe(1.42e9);
    expect(d.backwardSeconds).toBeCloseTo(computeSeconds(355e6, 8192, 'backward', 312e12, 0.4), 15);
    expect(d.backwardSeconds / d.forwardSeconds).toBeCloseTo(2, 12);
  });
  it('the default hides everything inside one node and loses the most when it crosses the NIC', () => {
    const none = scalingCurve(SCALING_DEFAULTS.worldSizes, defaultScalingInputs(0));
    const full = scalingCurve(SCALING_DEFAULTS.worldSizes, defaultScalingInputs(1));
    for (const p of full.filter((q) => q.n <= 8)) expect(p.efficiency).toBe(1);
    const at = (c: typeof none, n: number) => c.find((p) => p.n === n)!;
    expect(at(none, 8).efficiency - at(none, 16).efficiency).toBeGreaterThan(0.3);
    expect(at(full, 16).efficiency).toBeLessThan(0.9);
    expect(at(full, 16).commSeconds).toBeGreaterThan(defaultScalingInputs().backwardSeconds);
  });
  it('efficiency falls monotonically with n and throughput still rises', () => {
    const c = scalingCurve(SCALING_DEFAULTS.worldSizes, defaultScalingInputs());
    for (let i = 1; i < c.length; i++) {
      expect(c[i]!.efficiency).toBeLessThanOrEqual(c[i - 1]!.efficiency);
      expect(c[i]!.throughput).toBeGreaterThan(c[i - 1]!.throughput);
    }
  });
});
