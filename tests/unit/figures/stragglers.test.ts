import { describe, expect, it } from 'vitest';
import {
  expectedSlowestDelay,
  expectedStepSlowdown,
  harmonic,
  STRAGGLER_STEP,
} from '../../../src/lib/figures/stragglers';
import { rawEmbeds, readProgram } from '../../playground-manifest.ts';

describe('the slowest of N exponential delays', () => {
  it('H_N: 1, 3/2, 25/12, and ln N + γ for large N', () => {
    expect(harmonic(1)).toBe(1);
    expect(harmonic(2)).toBe(1.5);
    expect(harmonic(4)).toBeCloseTo(25 / 12, 14);
    expect(harmonic(1024)).toBeCloseTo(Math.log(1024) + 0.5772156649 + 1 / 2048, 6);
  });

  it('μ·H_N equals ∫ (1 − (1 − e^(−x/μ))^N) dx, the expectation of the maximum computed directly', () => {
    for (const n of [1, 2, 16, 1024]) {
      const mu = 5,
        dx = 1e-3;
      let integral = 0;
      for (let x = dx / 2; x < 40 * mu; x += dx)
        integral += (1 - (1 - Math.exp(-x / mu)) ** n) * dx;
      expect(integral).toBeCloseTo(expectedSlowestDelay(n, mu), 4);
    }
  });

  it('a 5 % mean delay makes the step about 31 % longer at 1,024 GPUs', () => {
    expect(expectedStepSlowdown(1)).toBe(1);
    expect(expectedStepSlowdown(1024)).toBeCloseTo(1.30996, 5);
  });

  it('the playground uses these constants and is embedded on 2 × 8 H100s', () => {
    const program = readProgram('09-stragglers.ts');
    for (const [k, v] of Object.entries(STRAGGLER_STEP))
      expect(program).toMatch(new RegExp(`\\b${k} = ${v}[,;]`));
    const embed = rawEmbeds('09-operating-at-scale.mdx').find((e) => e.src === '09-stragglers.ts')!;
    expect(embed.cluster).toEqual({ preset: 'h100-ndr', nodes: 2, gpusPerNode: 8 });
  });
});
