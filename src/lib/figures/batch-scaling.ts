/**
 * Batch size and learning rate at scale: the global batch data parallelism creates, the linear
 * (Goyal et al. 2017, §2.1–2.2) and square-root (Malladi et al. 2022, for Adam) scaling rules with
 * warm-up, and McCandlish et al. 2018's steps–examples trade-off around the gradient noise scale (§2).
 */

/** Sequences per optimizer step: micro-batch per rank × data-parallel ranks × accumulation steps. */
export function globalBatchSize(micro: number, ranks: number, accumulation = 1): number {
  return micro * ranks * accumulation;
}

/** Tokens per optimizer step, the unit language-model papers quote batch sizes in. */
export function batchTokens(sequences: number, seqLen: number): number {
  return sequences * seqLen;
}

/** Goyal et al.'s linear scaling rule: multiply the batch by k, multiply the learning rate by k. */
export function linearScaledLr(baseLr: number, baseBatch: number, batch: number): number {
  return baseLr * (batch / baseBatch);
}

/** Square-root scaling (Malladi et al. 2022 for Adam; the paper also rescales 1 − β₁, 1 − β₂ by k). */
export function sqrtScaledLr(baseLr: number, baseBatch: number, batch: number): number {
  return baseLr * Math.sqrt(batch / baseBatch);
}

/** Gradual warm-up: the rate climbs linearly from peak/warmup to peak over `warmup` steps, then stays (0-based steps). */
export function warmupLr(step: number, peak: number, warmup: number): number {
  if (warmup <= 0) return peak;
  return step < warmup ? (peak * (step + 1)) / warmup : peak;
}

/** Goyal et al. 2017: ResNet-50, η = 0.1·kn/256, k = 256 GPUs × n = 32 images, 5 warm-up epochs, about an hour. */
export const GOYAL_2017 = {
  refLr: 0.1,
  refBatch: 256,
  gpus: 256,
  perGpu: 32,
  warmupEpochs: 5,
  /**
   * Table 1 (§5.2), top-1 validation error in %, mean of 5 runs: the batch-256 baseline, and batch 8k at η = 3.2
   * with no warm-up (Fig. 2a), a constant low rate for 5 epochs (2b) and gradual warm-up (2c).
   */
  top1ErrorPct: { baseline: 23.6, noWarmup: 24.84, constantWarmup: 25.88, gradualWarmup: 23.74 },
} as const;

/** McCandlish et al. 2018: optimizer steps needed at batch B, S = S_min·(1 + B_noise/B). */
export function stepsToTarget(batch: number, noiseScale: number, minSteps: number): number {
  return minSteps * (1 + noiseScale / batch);
}

/** …and examples processed, E = B·S = E_min·(1 + B/B_noise) with E_min = S_min·B_noise. */
export function examplesToTarget(batch: number, noiseScale: number, minSteps: number): number {
  return batch * stepsToTarget(batch, noiseScale, minSteps);
}

/** The simple noise scale B_simple = tr(Σ)/|G|²: per-example gradient variance over the squared true gradient. */
export function simpleNoiseScale(traceCovariance: number, gradNormSquared: number): number {
  return traceCovariance / gradNormSquared;
}

/**
 * Speed-up in steps from growing the batch from `from` to `to` (more ranks at a fixed micro-batch),
 * against the ideal `to/from`: near-linear well below B_noise, flat well above it.
 */
export function stepSpeedup(
  from: number,
  to: number,
  noiseScale: number,
): { actual: number; ideal: number; efficiency: number } {
  const actual = stepsToTarget(from, noiseScale, 1) / stepsToTarget(to, noiseScale, 1);
  const ideal = to / from;
  return { actual, ideal, efficiency: actual / ideal };
}

/** Brown et al. 2020 (GPT-3), Table 2.1: batch size in tokens and learning rate, smallest and largest model. */
export const GPT3_BATCHES = [
  { model: 'GPT-3 Small', params: 125e6, batchTokens: 0.5e6, lr: 6.0e-4 },
  { model: 'GPT-3 175B', params: 175e9, batchTokens: 3.2e6, lr: 0.6e-4 },
] as const;
export const GPT3_CONTEXT = 2048;
