/**
 * The slowest of N: what a synchronous step waits for when every GPU's compute carries a random delay.
 * Chapter 9's straggler playground (content/chapters/playgrounds/09-stragglers.ts) measures it on the
 * simulated cluster; this is the expectation it is set against.
 */

/** The playground's constants (tests/unit/figures/stragglers.test.ts checks the program uses them). */
export const STRAGGLER_STEP = { baseMs: 100, meanDelayMs: 5, steps: 12 } as const;

/** H_N = 1 + 1/2 + … + 1/N, the N-th harmonic number. */
export function harmonic(n: number): number {
  let h = 0;
  for (let k = n; k >= 1; k--) h += 1 / k;
  return h;
}

/**
 * E[max of N independent exponential delays of mean μ] = μ·H_N: the first of N finishes after μ/N on
 * average, the memoryless rest then race as N − 1 fresh ones, and so on (Rényi's representation of
 * exponential order statistics, 1953).
 */
export function expectedSlowestDelay(n: number, mean: number): number {
  return mean * harmonic(n);
}

/** The step's expected length over one GPU's mean compute: (base + μ·H_N) / (base + μ). */
export function expectedStepSlowdown(
  n: number,
  c: { baseMs: number; meanDelayMs: number } = STRAGGLER_STEP,
): number {
  return (c.baseMs + expectedSlowestDelay(n, c.meanDelayMs)) / (c.baseMs + c.meanDelayMs);
}
