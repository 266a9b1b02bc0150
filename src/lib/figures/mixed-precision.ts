/**
 * Number formats and loss scaling: the limits of fp16 and bf16 (IEEE 754 binary16; bfloat16 keeps
 * fp32's 8 exponent bits), GradScaler's defaults (torch/amp/grad_scaler.py, repeated by
 * torch/distributed/fsdp/sharded_grad_scaler.py `ShardedGradScaler.__init__`), and what DDP's
 * communication hooks send (torch/distributed/algorithms/ddp_comm_hooks/).
 */

export interface FloatFormat {
  name: 'fp32' | 'bf16' | 'fp16';
  bytes: number;
  exponentBits: number;
  /** Stored fraction bits (the leading 1 is implicit). */
  mantissaBits: number;
}

export const FORMATS: Record<FloatFormat['name'], FloatFormat> = {
  fp32: { name: 'fp32', bytes: 4, exponentBits: 8, mantissaBits: 23 },
  bf16: { name: 'bf16', bytes: 2, exponentBits: 8, mantissaBits: 7 },
  fp16: { name: 'fp16', bytes: 2, exponentBits: 5, mantissaBits: 10 },
};

const bias = (f: FloatFormat) => 2 ** (f.exponentBits - 1) - 1;

/** Largest finite value: (2 − 2^−m) · 2^bias. fp16: 65504. */
export function maxFinite(f: FloatFormat): number {
  return (2 - 2 ** -f.mantissaBits) * 2 ** bias(f);
}

/** Smallest positive normal value: 2^(1 − bias). fp16: 2^−14. */
export function minNormal(f: FloatFormat): number {
  return 2 ** (1 - bias(f));
}

/** Smallest positive subnormal: 2^(1 − bias − m). fp16: 2^−24; anything below rounds to zero. */
export function minSubnormal(f: FloatFormat): number {
  return 2 ** (1 - bias(f) - f.mantissaBits);
}

/** Gap between 1 and the next value (machine epsilon), 2^−m: bf16 resolves only about 2–3 decimal digits. */
export function epsilon(f: FloatFormat): number {
  return 2 ** -f.mantissaBits;
}

/** GradScaler / ShardedGradScaler defaults: init_scale 2^16, growth ×2 after 2000 clean steps, backoff ×0.5 on inf/NaN. */
export const GRAD_SCALER_DEFAULTS = {
  initScale: 2 ** 16,
  growthFactor: 2,
  backoffFactor: 0.5,
  growthInterval: 2000,
} as const;

/** The scale after a run of steps: halves on every overflow, doubles after each `growthInterval` clean steps in a row. */
export function lossScaleAfter(
  overflows: boolean[],
  opts: {
    initScale: number;
    growthFactor: number;
    backoffFactor: number;
    growthInterval: number;
  } = GRAD_SCALER_DEFAULTS,
): { scale: number; skipped: number } {
  let scale = opts.initScale,
    clean = 0,
    skipped = 0;
  for (const overflow of overflows) {
    if (overflow) {
      scale *= opts.backoffFactor;
      clean = 0;
      skipped++;
      continue;
    }
    if (++clean === opts.growthInterval) {
      scale *= opts.growthFactor;
      clean = 0;
    }
  }
  return { scale, skipped };
}

/** Bytes one rank sends per all-reduce of Ψ gradients on a ring, with the wire dtype a hook chooses. */
export function hookWireBytes(params: number, ranks: number, wire: FloatFormat['name']): number {
  return ((2 * (ranks - 1)) / ranks) * params * FORMATS[wire].bytes;
}

/** PowerSGD (Vogels et al. 2019): an n×m gradient matrix sent as rank-r factors P (n×r) and Q (m×r). */
export function powerSgdCompression(
  n: number,
  m: number,
  rank: number,
): { dense: number; compressed: number; ratio: number } {
  const dense = n * m,
    compressed = (n + m) * rank;
  return { dense, compressed, ratio: dense / compressed };
}

/** PowerSGDState.__init__ defaults (torch/distributed/algorithms/ddp_comm_hooks/powerSGD_hook.py): a tensor is compressed only if (n + m)·r·min_compression_rate < n·m. */
export const POWER_SGD_DEFAULTS = {
  matrixApproximationRank: 1,
  minCompressionRate: 2,
  useErrorFeedback: true,
  warmStart: true,
  /** 1_000 since PyTorch PR #55272 (1.9); 10 in PyTorch 1.8. */
  startPowerSgdIter: 1_000,
} as const;

/** The hook's `_should_compress` test. */
export function powerSgdCompresses(
  n: number,
  m: number,
  rank = POWER_SGD_DEFAULTS.matrixApproximationRank,
  minRate = POWER_SGD_DEFAULTS.minCompressionRate,
): boolean {
  return (n + m) * rank * minRate < n * m;
}
