import { describe, expect, it } from 'vitest';
import {
  CRITICAL_BATCH,
  criticalBatchRun,
  hashUniform,
  maxLr,
  scaledLr,
  twoBatchNoiseScale,
} from '../../../src/lib/figures/critical-batch';
import { rawEmbeds, readProgram } from '../../playground-manifest.ts';

describe("chapter 8's critical batch on one device", () => {
  it('the two-batch estimator returns tr(Σ)/|G|² exactly from expected squared norms |G|² + tr(Σ)/B', () => {
    const gradSq = 3,
      traceSigma = 600;
    const at = (b: number) => gradSq + traceSigma / b;
    expect(twoBatchNoiseScale(at(4), at(4096), 4, 4096)).toBeCloseTo(traceSigma / gradSq, 9);
  });

  it('the hash is uniform enough: mean 1/2, variance 1/12 over 100,000 draws', () => {
    const u = Array.from({ length: 100_000 }, (_, j) => hashUniform(j, 3, 0));
    const mean = u.reduce((a, b) => a + b) / u.length;
    const variance = u.reduce((a, b) => a + (b - mean) ** 2, 0) / u.length;
    expect(mean).toBeCloseTo(0.5, 2);
    expect(variance).toBeCloseTo(1 / 12, 3);
    expect(Math.min(...u)).toBeGreaterThan(0);
    expect(Math.max(...u)).toBeLessThan(1);
  });

  it('at 1,024 ranks the steps halve up to the ceiling of the linear rule, then flatten', () => {
    const run = criticalBatchRun(1024);
    const knee = run.groups.findIndex((g) => g.lr === maxLr);
    for (let i = 1; i <= knee; i++) {
      const ratio = run.groups[i - 1]!.steps / run.groups[i]!.steps;
      expect(ratio).toBeGreaterThan(1.9);
      expect(ratio).toBeLessThan(2.1);
    }
    for (const g of run.groups.slice(knee)) expect(g.steps).toBe(run.sMin);
    expect(run.stallsAt).toBe(run.groups[knee + 1]!.ranks);
    expect(run.bCrit).toBeCloseTo(run.groups[knee]!.batch, -2);
    // The noise scale grows as the loss falls, and lands within a small factor of the critical batch.
    expect(run.noiseScaleAtTarget).toBeGreaterThan(20 * run.noiseScaleAtStart);
    expect(run.noiseScaleAtTarget / run.bCrit).toBeGreaterThan(1);
    expect(run.noiseScaleAtTarget / run.bCrit).toBeLessThan(4);
  });

  it('the program uses these constants, and its page lines are what this replay computes at 16 ranks', () => {
    const program = readProgram('08-critical-batch.ts');
    for (const [k, v] of Object.entries(CRITICAL_BATCH))
      expect(program).toMatch(
        new RegExp(`\\b${k} = ${k === 'tokensPerGpu' ? '8 \\* 2048' : String(v)}[,;]`),
      );
    const embed = rawEmbeds('08-batch-size-and-learning-rate.mdx').find(
      (e) => e.src === '08-critical-batch.ts',
    )!;
    expect(embed.cluster).toEqual({ preset: 'h100-ndr', nodes: 2, gpusPerNode: 8 });
    const run = criticalBatchRun(16);
    const last = run.groups.at(-1)!;
    const row = `${String(last.ranks).padStart(5)} | ${String(last.batch).padStart(12)} | ${scaledLr(last.batch).toFixed(4).padStart(13)} | ${String(last.steps).padStart(15)} | ${String(last.examples).padStart(8)} |`;
    const lines = JSON.parse(embed.expect!) as string[];
    expect(lines.some((l) => l.startsWith(row))).toBe(true);
    expect(lines).toContain(
      `gradient noise scale B_simple from the ranks' gradients: ${run.noiseScaleAtStart.toFixed(0)} at the start, ${run.noiseScaleAtTarget.toFixed(0)} at the target`,
    );
    expect(run.stallsAt).toBeNull();
  });
});
