import { describe, expect, it } from 'vitest';
import {
  epsilon,
  FORMATS,
  GRAD_SCALER_DEFAULTS,
  hookWireBytes,
  lossScaleAfter,
  maxFinite,
  minNormal,
  minSubnormal,
  powerSgdCompresses,
  powerSgdCompression,
  POWER_SGD_DEFAULTS,
} from '../../../src/lib/figures/mixed-precision';

describe('float formats', () => {
  it('fp16 (IEEE binary16): max 65504, min normal 2^-14, min subnormal 2^-24, epsilon 2^-10', () => {
    expect(maxFinite(FORMATS.fp16)).toBe(65504);
    expect(minNormal(FORMATS.fp16)).toBe(2 ** -14);
    expect(minSubnormal(FORMATS.fp16)).toBe(2 ** -24);
    expect(epsilon(FORMATS.fp16)).toBe(2 ** -10);
  });
  it('bf16 has fp32 range (max ≈ 3.39e38) with 7 fraction bits; fp32 max agrees with Float32Array', () => {
    expect(maxFinite(FORMATS.bf16)).toBeCloseTo(3.3895313892515355e38, -30);
    expect(minNormal(FORMATS.bf16)).toBe(minNormal(FORMATS.fp32));
    expect(epsilon(FORMATS.bf16)).toBe(2 ** -7);
    expect(new Float32Array([maxFinite(FORMATS.fp32)])[0]).toBe(maxFinite(FORMATS.fp32));
    expect(Number.isFinite(new Float32Array([maxFinite(FORMATS.fp32) * 2])[0])).toBe(false);
  });
  it('a gradient of 1e-8 underflows in fp16 unless scaled by the default 2^16', () => {
    expect(1e-8).toBeLessThan(minSubnormal(FORMATS.fp16) / 2);
    expect(1e-8 * GRAD_SCALER_DEFAULTS.initScale).toBeGreaterThan(minSubnormal(FORMATS.fp16));
  });
});

describe('loss scaling (GradScaler / ShardedGradScaler defaults)', () => {
  it('defaults: init 2^16, ×2 after 2000 clean steps, ×0.5 per overflow', () => {
    expect(GRAD_SCALER_DEFAULTS).toEqual({
      initScale: 65536,
      growthFactor: 2,
      backoffFactor: 0.5,
      growthInterval: 2000,
    });
  });
  it('halves on each overflow and skips that step; doubles after the growth interval', () => {
    expect(lossScaleAfter([true, true, false])).toEqual({ scale: 2 ** 14, skipped: 2 });
    expect(lossScaleAfter(Array(2000).fill(false)).scale).toBe(2 ** 17);
    expect(lossScaleAfter([...Array(1999).fill(false), true, false]).scale).toBe(2 ** 15);
  });
});

describe('communication hooks', () => {
  it('bf16 compression halves the bytes on the wire of an fp32 all-reduce', () => {
    expect(hookWireBytes(1e9, 8, 'bf16') / hookWireBytes(1e9, 8, 'fp32')).toBe(0.5);
    expect(hookWireBytes(1e9, 8, 'fp32')).toBe(2 * (7 / 8) * 4e9);
  });
  it('PowerSGD sends (n + m)·r numbers for an n×m matrix, and skips tensors where that does not save 2×', () => {
    expect(powerSgdCompression(4096, 4096, 1)).toEqual({
      dense: 4096 * 4096,
      compressed: 8192,
      ratio: 2048,
    });
    expect(POWER_SGD_DEFAULTS.matrixApproximationRank).toBe(1);
    expect(powerSgdCompresses(4096, 4096)).toBe(true);
    expect(powerSgdCompresses(4096, 1)).toBe(false); // a bias vector is all-reduced as is
  });
});
