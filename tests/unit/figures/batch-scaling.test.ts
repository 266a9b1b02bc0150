import { describe, expect, it } from 'vitest';
import {
  batchTokens,
  examplesToTarget,
  globalBatchSize,
  GOYAL_2017,
  GPT3_BATCHES,
  GPT3_CONTEXT,
  linearScaledLr,
  simpleNoiseScale,
  sqrtScaledLr,
  stepSpeedup,
  stepsToTarget,
  warmupLr,
} from '../../../src/lib/figures/batch-scaling';

describe('batch size and learning rate', () => {
  it('the global batch is micro × ranks × accumulation', () => {
    expect(globalBatchSize(8, 4)).toBe(32);
    expect(globalBatchSize(8, 64, 1)).toBe(512);
    expect(globalBatchSize(4, 8, 4)).toBe(128);
  });
  it('Goyal et al.: η = 0.1·kn/256 gives 3.2 at 256 GPUs × 32 images = 8192', () => {
    const batch = GOYAL_2017.gpus * GOYAL_2017.perGpu;
    expect(batch).toBe(8192);
    expect(linearScaledLr(GOYAL_2017.refLr, GOYAL_2017.refBatch, batch)).toBeCloseTo(3.2, 12);
  });
  it('square-root scaling grows the rate by √k, linear by k', () => {
    expect(sqrtScaledLr(1e-3, 32, 512)).toBeCloseTo(4e-3, 12);
    expect(linearScaledLr(1e-3, 32, 512)).toBeCloseTo(16e-3, 12);
  });
  it('warm-up climbs linearly to the peak and stays there', () => {
    expect(warmupLr(0, 1, 4)).toBe(0.25);
    expect(warmupLr(3, 1, 4)).toBe(1);
    expect(warmupLr(10, 1, 4)).toBe(1);
    expect(warmupLr(0, 1, 0)).toBe(1);
  });
  it('McCandlish et al.: (S/S_min − 1)(E/E_min − 1) = 1 for every batch size', () => {
    for (const b of [16, 256, 4096, 65536]) {
      const s = stepsToTarget(b, 1000, 100),
        e = examplesToTarget(b, 1000, 100);
      expect((s / 100 - 1) * (e / (100 * 1000) - 1)).toBeCloseTo(1, 9);
    }
    expect(simpleNoiseScale(50, 0.1)).toBe(500);
  });
  it('doubling the batch halves the steps far below B_noise and barely helps far above it', () => {
    expect(stepSpeedup(32, 64, 1e5).efficiency).toBeGreaterThan(0.99);
    expect(stepSpeedup(1e6, 2e6, 1e3).actual).toBeLessThan(1.001);
    expect(stepSpeedup(1000, 2000, 1000).actual).toBeCloseTo(4 / 3, 12);
  });
  it('GPT-3 Table 2.1: 0.5M and 3.2M tokens per batch, i.e. about 244 and 1563 sequences of 2048', () => {
    expect(batchTokens(256, GPT3_CONTEXT)).toBe(524288);
    expect(GPT3_BATCHES.map((g) => Math.round(g.batchTokens / GPT3_CONTEXT))).toEqual([244, 1563]);
  });
});
