/**
 * Chapter 8's critical-batch playground (content/chapters/playgrounds/08-critical-batch.ts) on one device:
 * data-parallel SGD over N ranks of b examples each averages the same gradient one device computes on the
 * N·b rows, so this replays the program's training in float64 for every group size up to 1,024 ranks in
 * a fraction of a second. The chapter prints its numbers; tests/unit/figures/critical-batch.test.ts checks
 * that the constants are the program's and that the program's page lines agree with it.
 */

/** The playground's constants (the program defines the same names; the test checks they agree). */
export const CRITICAL_BATCH = {
  d: 16,
  perRank: 4,
  noise: 2,
  conditioning: 100,
  baseLr: 0.004,
  targetFraction: 0.05,
  measured: 1024,
  tokensPerGpu: 8 * 2048,
} as const;

const C = CRITICAL_BATCH;
/** Feature i's variance: from 1 down to 1/conditioning. */
export const featureVariances = Array.from(
  { length: C.d },
  (_, i) => C.conditioning ** (-i / (C.d - 1)),
);
/** Half the stability limit 2/λ_max of the loss σ² + Σ h_i (w_i − 1)², whose Hessian is 2·diag(h). */
export const maxLr = 1 / (2 * Math.max(...featureVariances));

/** The program's counter-based uniform in (0, 1): example j, coordinate c, stream (0 train, 1 measure). */
export function hashUniform(j: number, c: number, stream: number): number {
  let x = Math.imul(j ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(c + 0x632be5ab, 0xc2b2ae35);
  x ^= Math.imul(stream + 0x27d4eb2f, 0x165667b1);
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (((x ^ (x >>> 16)) >>> 0) + 0.5) / 2 ** 32;
}

function hashNormal(j: number, c: number, stream: number): number {
  return (
    Math.sqrt(-2 * Math.log(hashUniform(j, 2 * c, stream))) *
    Math.cos(2 * Math.PI * hashUniform(j, 2 * c + 1, stream))
  );
}

const excess = (w: Float64Array) =>
  w.reduce((a, wi, i) => a + featureVariances[i]! * (wi - 1) ** 2, 0);
/** The target: targetFraction of the excess loss at w = 0. */
export const targetExcess = C.targetFraction * excess(new Float64Array(C.d));

/** The linear scaling rule from one rank's base rate, up to maxLr. */
export function scaledLr(batch: number): number {
  return Math.min((C.baseLr * batch) / C.perRank, maxLr);
}

/** One rank's gradient on its rows (examples first … first + perRank − 1 of a stream), as the program computes it. */
function rankGradient(w: Float64Array, first: number, stream: number): Float64Array {
  const g = new Float64Array(C.d);
  for (let e = 0; e < C.perRank; e++) {
    const x = featureVariances.map((h, i) =>
      Math.fround(Math.sqrt(h) * hashNormal(first + e, i, stream)),
    );
    const y = Math.fround(
      x.reduce((a, v) => a + v, 0) + C.noise * hashNormal(first + e, C.d, stream),
    );
    const r = (2 / C.perRank) * (x.reduce((a, v, i) => a + v * w[i]!, 0) - y);
    for (let i = 0; i < C.d; i++) g[i] = g[i]! + r * x[i]!;
  }
  return g;
}

/** The group's average gradient and the mean of its ranks' squared gradient norms. */
function groupGradient(
  w: Float64Array,
  ranks: number,
  firstOf: (rank: number) => number,
  stream: number,
) {
  const G = new Float64Array(C.d);
  let smallNormSq = 0;
  for (let r = 0; r < ranks; r++) {
    const g = rankGradient(w, firstOf(r), stream);
    smallNormSq += g.reduce((a, v) => a + v * v, 0) / ranks;
    for (let i = 0; i < C.d; i++) G[i] = G[i]! + g[i]! / ranks;
  }
  return { G, smallNormSq, bigNormSq: G.reduce((a, v) => a + v * v, 0) };
}

/** McCandlish et al. 2018, Appendix A.1: |G|² and tr(Σ) from the squared norms at two batch sizes. */
export function twoBatchNoiseScale(
  smallNormSq: number,
  bigNormSq: number,
  small: number,
  big: number,
): number {
  const gradSq = (big * bigNormSq - small * smallNormSq) / (big - small);
  const traceSigma = (smallNormSq - bigNormSq) / (1 / small - 1 / big);
  return traceSigma / gradSq;
}

export interface GroupRun {
  ranks: number;
  batch: number;
  lr: number;
  steps: number;
  examples: number;
}

/** Trains a group of `ranks` ranks from w = 0 to the target, as the program does. */
export function trainGroup(ranks: number): GroupRun & { w: Float64Array; startNoiseScale: number } {
  const batch = C.perRank * ranks,
    lr = scaledLr(batch);
  const w = new Float64Array(C.d);
  let steps = 0,
    startNoiseScale = NaN;
  while (excess(w) > targetExcess) {
    const a = groupGradient(w, ranks, (r) => steps * batch + r * C.perRank, 0);
    if (steps === 0)
      startNoiseScale = twoBatchNoiseScale(a.smallNormSq, a.bigNormSq, C.perRank, batch);
    for (let i = 0; i < C.d; i++) w[i] = w[i]! - lr * a.G[i]!;
    steps++;
  }
  return { ranks, batch, lr, steps, examples: batch * steps, w, startNoiseScale };
}

export interface CriticalBatchRun {
  groups: GroupRun[];
  /** Fewest steps, fewest examples, and B_crit = E_min / S_min (McCandlish et al. §2.3). */
  sMin: number;
  eMin: number;
  bCrit: number;
  /** The first group size whose doubling cut the steps by less than 1.5×, or null. */
  stallsAt: number | null;
  /**
   * B_simple from the whole world's gradients: its first step (big batch: the world's), and `draws` fresh
   * batches per rank at the target (big batch: all of them).
   */
  noiseScaleAtStart: number;
  noiseScaleAtTarget: number;
}

/** Every group size the program runs at `world` ranks (1, 2, 4, … and the world), and what it prints. */
export function criticalBatchRun(world: number): CriticalBatchRun {
  const sizes: number[] = [];
  for (let n = 1; n < world && world % (2 * n) === 0; n *= 2) sizes.push(n);
  sizes.push(world);
  const runs = sizes.map(trainGroup);
  const last = runs.at(-1)!;
  const draws = Math.ceil(C.measured / world);
  let small = 0;
  const sum = new Float64Array(C.d);
  for (let k = 0; k < draws; k++) {
    const a = groupGradient(last.w, world, (r) => (k * world + r) * C.perRank, 1);
    small += a.smallNormSq / draws;
    a.G.forEach((v, i) => (sum[i] = sum[i]! + v / draws));
  }
  const big = sum.reduce((a, v) => a + v * v, 0);
  const sMin = Math.min(...runs.map((r) => r.steps)),
    eMin = Math.min(...runs.map((r) => r.examples));
  const stall = runs.findIndex((r, i) => i > 0 && runs[i - 1]!.steps / r.steps < 1.5);
  return {
    groups: runs.map(({ ranks, batch, lr, steps, examples }) => ({
      ranks,
      batch,
      lr,
      steps,
      examples,
    })),
    sMin,
    eMin,
    bCrit: eMin / sMin,
    stallsAt: stall < 0 ? null : sizes[stall]!,
    noiseScaleAtStart: last.startNoiseScale,
    noiseScaleAtTarget: twoBatchNoiseScale(small, big, C.perRank, C.perRank * world * draws),
  };
}
