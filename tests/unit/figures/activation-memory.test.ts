import { describe, expect, it } from 'vitest';
import {
  activationBreakdown,
  activationBytes,
  activationBytesPerLayer,
  attentionScoreRatio,
  forwardFlopsPerLayer,
  GPT3_175B,
  GPT3_XL,
  recomputeOverhead,
  trainingFlopsPerLayer,
  accumulationSteps,
} from '../../../src/lib/figures/activation-memory';

const gpt3 = { ...GPT3_175B, micro: 1 };

describe('activation memory (Korthikanti et al. 2022)', () => {
  it('§4.1: attention 11sbh + 5as²b, MLP 19sbh, LayerNorm 4sbh add up to Eq. 1, sbh(34 + 5as/h)', () => {
    const x = { seq: 2048, micro: 2, hidden: 4096, heads: 32 };
    const p = activationBreakdown(x);
    const sbh = 2048 * 2 * 4096;
    expect(p.attention + p.attentionScores + p.mlp + p.layerNorm).toBe(activationBytesPerLayer(x));
    expect(activationBytesPerLayer(x)).toBeCloseTo(sbh * (34 + (5 * 32 * 2048) / 4096), 0);
  });
  it('§4.2.1 Eq. 2: tensor parallelism divides all but the 10sbh of LayerNorm and dropout inputs', () => {
    const x = { seq: 2048, micro: 1, hidden: 12288, heads: 96, tensorParallel: 8 };
    const sbh = 2048 * 12288;
    expect(activationBytesPerLayer(x)).toBeCloseTo(
      sbh * (10 + 24 / 8 + (5 * 96 * 2048) / (12288 * 8)),
      0,
    );
    expect(activationBytesPerLayer({ ...x, tensorParallel: 1 })).toBe(
      activationBytesPerLayer({ seq: 2048, micro: 1, hidden: 12288, heads: 96 }),
    );
  });
  it('§5: full recomputation keeps 2sbh per layer, selective drops the 5as/h term (34sbh without tensor parallelism)', () => {
    const sbh = 2048 * 12288;
    expect(activationBytesPerLayer(gpt3, 'full')).toBe(2 * sbh);
    expect(activationBytesPerLayer(gpt3, 'selective')).toBe(34 * sbh);
  });
  it('GPT-3 175B: 5as/h = 80 > 34, so selective recomputation saves more than half', () => {
    expect(attentionScoreRatio(gpt3)).toBe(80);
    expect(activationBytesPerLayer(gpt3, 'selective') / activationBytesPerLayer(gpt3)).toBeLessThan(
      0.5,
    );
    // one sequence of 2048 tokens: 96 layers × 2048·12288·114 bytes ≈ 275 GB
    expect(activationBytes(gpt3) / 1e9).toBeCloseTo((96 * 2048 * 12288 * 114) / 1e9, 6);
  });
  it('GPT-3 XL as in Brown et al. 2020, Table 2.1 (24 layers, d_model 2048, 24 heads): chapter 7 table rows', () => {
    expect(GPT3_XL).toEqual({ seq: 2048, hidden: 2048, heads: 24, layers: 24 });
    const xl = { ...GPT3_XL, micro: 1 };
    // 5as/h = 5 · 24 · s / 2048 at the chapter's sequence lengths
    expect([1024, 2048, 4096, 8192].map((seq) => attentionScoreRatio({ ...xl, seq }))).toEqual([
      60, 120, 240, 480,
    ]);
    // one 2048-token sequence keeps 24 layers × sbh(34 + 120) bytes ≈ 15.50 GB
    expect(activationBytes(xl) / 1e9).toBeCloseTo((24 * 2048 * 2048 * (34 + 120)) / 1e9, 9);
    expect(activationBytes(xl) / 1e9).toBeCloseTo(15.5, 2);
  });
  it('forward FLOPs 24bsh² + 4bs²h; full recomputation costs one extra forward (a third more)', () => {
    const x = { seq: 1024, micro: 1, hidden: 1024, heads: 16 };
    expect(forwardFlopsPerLayer(x)).toBe(24 * 1024 ** 3 + 4 * 1024 ** 3);
    expect(recomputeOverhead(x, 'full')).toBeCloseTo(1 / 3, 12);
    expect(recomputeOverhead(x, 'none')).toBe(0);
    const sel = recomputeOverhead(gpt3, 'selective');
    expect(sel).toBeGreaterThan(0);
    expect(sel).toBeLessThan(0.02);
    expect(trainingFlopsPerLayer(gpt3, 'selective') - trainingFlopsPerLayer(gpt3)).toBe(
      4 * 2048 * 2048 * 12288,
    );
  });
  it('memory scales linearly in b and h, quadratically in s only through the attention scores', () => {
    const x = { seq: 1024, micro: 1, hidden: 1024, heads: 8 };
    expect(activationBytesPerLayer({ ...x, micro: 4 })).toBe(4 * activationBytesPerLayer(x));
    expect(activationBytesPerLayer({ ...x, seq: 2048 }, 'selective')).toBe(
      2 * activationBytesPerLayer(x, 'selective'),
    );
    expect(activationBytesPerLayer({ ...x, seq: 2048 })).toBeGreaterThan(
      2 * activationBytesPerLayer(x),
    );
  });
  it('accumulation steps divide the per-rank batch into micro-batches, and refuse a remainder', () => {
    expect(accumulationSteps(32, 4)).toBe(8);
    expect(() => accumulationSteps(30, 4)).toThrow(/not a multiple/);
  });
});
