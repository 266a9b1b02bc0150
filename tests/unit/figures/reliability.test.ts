import { describe, expect, it } from 'vitest';
import {
  goodput,
  goodputInputError,
  goodputOutputs,
  goodputAtYoung,
  LLAMA3_GPU_SHARE,
  llama3PerGpuMtbf,
  youngInterval,
} from '../../../src/lib/figures/reliability';

describe('Llama 3 interruption rates (Dubey et al. 2024, §3.3.4, Table 5)', () => {
  it('all causes: one interruption per ~50,600 GPU-hours; GPU-related only (58.7 %): ~86,300', () => {
    const r = llama3PerGpuMtbf();
    expect(LLAMA3_GPU_SHARE).toBe(0.587);
    expect(r.allCausesHours).toBeCloseTo(((54 * 24) / 419) * 16_384, 6);
    expect(Math.round(r.allCausesHours / 1000) * 1000).toBe(51_000);
    expect(Math.round(r.gpuOnlyHours / 1000) * 1000).toBe(86_000);
  });
});

describe("Young's checkpoint interval and goodput", () => {
  it('τ = √(2CM)', () => {
    expect(youngInterval(2, 100)).toBeCloseTo(20, 12);
  });
  it("Young's interval maximises the first-order goodput", () => {
    const job = {
      gpus: 16_384,
      perGpuMtbfHours: llama3PerGpuMtbf().allCausesHours,
      checkpointMinutes: 2,
      restartMinutes: 10,
    };
    const best = goodputAtYoung(job);
    for (const f of [0.5, 0.8, 1.25, 2])
      expect(goodput({ ...job, intervalMinutes: best.intervalMinutes * f }).goodput).toBeLessThan(
        best.goodput,
      );
    // 16,384 GPUs at Llama 3's rate: M ≈ 186 min, τ ≈ 27 min, goodput ≈ 80 %.
    expect(best.jobMtbfMinutes).toBeCloseTo(185.6, 1);
    expect(best.intervalMinutes).toBeCloseTo(27.2, 1);
    expect(best.goodput).toBeCloseTo(0.8, 2);
  });
  it('goodput falls with job size and is clamped at zero', () => {
    const base = {
      perGpuMtbfHours: 50_000,
      intervalMinutes: 30,
      checkpointMinutes: 2,
      restartMinutes: 10,
    };
    const sizes = [1024, 4096, 16_384, 65_536].map((g) => goodput({ ...base, gpus: g }).goodput);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThan(sizes[i - 1]!);
    expect(goodput({ ...base, gpus: 10_000_000 }).goodput).toBe(0);
  });
});

describe('goodput widget outputs', () => {
  const base = {
    gpus: 16_384,
    perGpuMtbfHours: llama3PerGpuMtbf().allCausesHours,
    intervalMinutes: 30,
    checkpointMinutes: 2,
    restartMinutes: 10,
  };
  it('prints the defaults: one interruption every 3.1 h, 79.9 % goodput, Young at 27.2 min', () => {
    const o = goodputOutputs(base);
    expect(o.mtbf).toBe('3.1 h');
    expect(o.goodput).toBe('79.9 %');
    expect(o.young).toBe('27.2 min');
    expect(o.verdict).toBe("Close to Young's optimum.");
    expect(goodputOutputs({ ...base, intervalMinutes: 60 }).verdict).toMatch(/too rarely/);
    expect(goodputOutputs({ ...base, intervalMinutes: 120 }).verdict).toMatch(/optimistic/);
    expect(goodputOutputs({ ...base, intervalMinutes: 5 }).verdict).toMatch(/too often/);
  });
  it('says why an input cannot be computed', () => {
    expect(goodputInputError(base)).toBeUndefined();
    expect(goodputInputError({ ...base, gpus: 0 })).toMatch(/whole number/);
    expect(goodputInputError({ ...base, intervalMinutes: Number.NaN })).toMatch(/every field/);
    expect(goodputInputError({ ...base, restartMinutes: -1 })).toMatch(/negative/);
  });
});
