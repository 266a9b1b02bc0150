/**
 * Batch size and schedules at LLM scale (chapter 8):
 * - Kaplan et al. 2020, "Scaling Laws for Neural Language Models", §5.1, Eq. 5.3: the critical batch
 *   B_crit(L) ≈ B* / L^(1/α_B), B* ≈ 2·10⁸ tokens, α_B ≈ 0.21, with L the loss in nats per token;
 * - Brown et al. 2020 (GPT-3), Appendix B: the batch ramps linearly from 32k tokens to its full value
 *   over the first 4–12 billion tokens, depending on model size;
 * - Dubey et al. 2024 (Llama 3 405B), §3.4.1: 4M tokens at sequence 4,096, then 8M at 8,192 after
 *   252M tokens, then 16M after 2.87T tokens;
 * - Hu et al. 2024 (MiniCPM), §4: warmup-stable-decay (WSD) learning-rate schedules.
 */

export const KAPLAN_CRITICAL_BATCH = { bStarTokens: 2e8, alphaB: 0.21 } as const;

/** Kaplan's Eq. 5.3: tokens per step beyond which more batch buys little, at loss L (nats per token). */
export function criticalBatchTokens(loss: number): number {
  const { bStarTokens, alphaB } = KAPLAN_CRITICAL_BATCH;
  return bStarTokens / loss ** (1 / alphaB);
}

/** Llama 3 405B's staged batch: [tokens seen so far at which the stage starts, batch tokens, sequence length]. */
export const LLAMA3_BATCH_STAGES = [
  { fromTokens: 0, batchTokens: 4e6, seq: 4096 },
  { fromTokens: 252e6, batchTokens: 8e6, seq: 8192 },
  { fromTokens: 2.87e12, batchTokens: 16e6, seq: 8192 },
] as const;

/** Batch in tokens after `tokensSeen` tokens of Llama 3 405B pre-training. */
export function llama3BatchTokens(tokensSeen: number): number {
  let batch: number = LLAMA3_BATCH_STAGES[0].batchTokens;
  for (const s of LLAMA3_BATCH_STAGES) if (tokensSeen >= s.fromTokens) batch = s.batchTokens;
  return batch;
}

/** GPT-3's ramp: linear in tokens seen from 32k tokens to the full batch over `rampTokens`. */
export function gpt3RampBatchTokens(
  tokensSeen: number,
  fullBatch: number,
  rampTokens: number,
): number {
  const start = 32_000;
  if (tokensSeen >= rampTokens) return fullBatch;
  return start + ((fullBatch - start) * tokensSeen) / rampTokens;
}

export interface WsdSchedule {
  peak: number;
  warmupSteps: number;
  stableSteps: number;
  decaySteps: number;
  /** Rate at the end of the decay, as a fraction of the peak. */
  finalFraction: number;
}

/** Warmup-stable-decay: linear warm-up, a constant plateau, then a (here linear) decay to the floor. */
export function wsdLr(step: number, s: WsdSchedule): number {
  if (step < s.warmupSteps) return (s.peak * (step + 1)) / s.warmupSteps;
  const t = step - s.warmupSteps;
  if (t < s.stableSteps) return s.peak;
  const d = Math.min(1, (t - s.stableSteps) / s.decaySteps);
  return s.peak * (1 - d * (1 - s.finalFraction));
}

/** Cosine decay from the peak after warm-up to finalFraction of it at totalSteps, for comparison. */
export function cosineLr(
  step: number,
  s: { peak: number; warmupSteps: number; totalSteps: number; finalFraction: number },
): number {
  if (step < s.warmupSteps) return (s.peak * (step + 1)) / s.warmupSteps;
  const p = Math.min(1, (step - s.warmupSteps) / (s.totalSteps - s.warmupSteps));
  const floor = s.peak * s.finalFraction;
  return floor + ((s.peak - floor) * (1 + Math.cos(Math.PI * p))) / 2;
}

/** Llama 3's flagship, the model of the staged batch above. */
export const LLAMA3_405B_PARAMS = 405e9;

/** GPT-3's Adam settings (Brown et al. 2020, Appendix B) and PyTorch's default β₂ (torch.optim.Adam betas=(0.9, 0.999)). */
export const GPT3_ADAM = { beta1: 0.9, beta2: 0.95, eps: 1e-8 } as const;
export const TORCH_ADAM_DEFAULT_BETA2 = 0.999;

/** Steps an exponential moving average with decay β remembers, 1/(1 − β). */
export function emaMemorySteps(beta: number): number {
  return 1 / (1 - beta);
}

/** LARS's trust coefficient η in You, Gitman and Ginsburg 2017 (Algorithm 1). */
export const LARS_TRUST_COEFFICIENT = 0.001;
