import { describe, expect, it } from 'vitest';
import {
  cosineLr,
  criticalBatchTokens,
  gpt3RampBatchTokens,
  llama3BatchTokens,
  wsdLr,
} from '../../../src/lib/figures/llm-batch';

describe('batch size at LLM scale', () => {
  it('Kaplan Eq. 5.3: the critical batch grows as the loss falls (≈1.1M tokens at 3.0 nats, ≈7.4M at 2.0)', () => {
    expect(criticalBatchTokens(3.0) / 1e6).toBeCloseTo(1.07, 2);
    expect(criticalBatchTokens(2.5) / 1e6).toBeCloseTo(2.55, 2);
    expect(criticalBatchTokens(2.0) / 1e6).toBeCloseTo(7.37, 2);
    expect(criticalBatchTokens(2.0)).toBeGreaterThan(criticalBatchTokens(3.0));
  });
  it('Llama 3 405B: 4M, then 8M after 252M tokens, then 16M after 2.87T', () => {
    expect(llama3BatchTokens(0)).toBe(4e6);
    expect(llama3BatchTokens(252e6)).toBe(8e6);
    expect(llama3BatchTokens(2.87e12)).toBe(16e6);
  });
  it('GPT-3 ramps linearly from 32k tokens', () => {
    expect(gpt3RampBatchTokens(0, 3.2e6, 12e9)).toBe(32_000);
    expect(gpt3RampBatchTokens(6e9, 3.2e6, 12e9)).toBeCloseTo((32_000 + 3.2e6) / 2, 6);
    expect(gpt3RampBatchTokens(20e9, 3.2e6, 12e9)).toBe(3.2e6);
  });
  it('WSD holds the peak through the stable phase and decays only at the end; cosine decays throughout', () => {
    const s = { peak: 1, warmupSteps: 10, stableSteps: 80, decaySteps: 10, finalFraction: 0.1 };
    expect(wsdLr(0, s)).toBeCloseTo(0.1, 12);
    expect(wsdLr(50, s)).toBe(1);
    expect(wsdLr(89, s)).toBe(1);
    expect(wsdLr(100, s)).toBeCloseTo(0.1, 12);
    const c = { peak: 1, warmupSteps: 10, totalSteps: 100, finalFraction: 0.1 };
    expect(cosineLr(55, c)).toBeCloseTo(0.55, 12);
    expect(cosineLr(100, c)).toBeCloseTo(0.1, 12);
  });
});
