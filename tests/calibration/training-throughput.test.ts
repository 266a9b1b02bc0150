import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM_EFFICIENCY } from '../../playground/simulation/cluster-options.ts';
import { GPUS } from '../../playground/simulation/presets.ts';
import {
  flopsPerToken,
  fsdpStep,
  H100_GRAND_TETON,
  LLAMA2_13B,
  LLAMA3_70B,
  LLAMA3_8B,
  SIM_DEFAULT_EFFICIENCY,
} from '../../src/lib/figures/training-throughput.ts';
import {
  PUBLISHED_THROUGHPUT,
  throughputMarkdown,
  throughputRows,
} from './published-throughput.ts';

/** MFU as torchtitan computes it: FLOPs per token × tokens/s ÷ peak. */
const mfu = (flops: number, tps: number, peak: number) => (flops * tps) / peak;

describe('published training throughput through the simulation (issue 31, end to end)', () => {
  it('counts the FLOPs torchtitan’s MFU counts: each A100 figure gives its published MFU', () => {
    const a100 = GPUS.a100.bf16Flops.value;
    expect(mfu(flopsPerToken(LLAMA3_8B), 2904, a100)).toBeCloseTo(0.568, 3);
    expect(mfu(flopsPerToken(LLAMA3_70B), 331, a100)).toBeCloseTo(0.517, 3);
    expect(mfu(flopsPerToken(LLAMA2_13B), 2162, a100)).toBeCloseTo(0.611, 3);
  });

  it('why the H100 rows are not reproduced: torchtitan’s own "33% to 39% MFU" against the SXM peak', () => {
    // The December 2024 benchmark leaves the 128,256 × 4,096 embedding out of its count; with it out,
    // its FSDP rows (5,762 eager, 6,667 with torch.compile, 8 GPUs) give exactly the 33 % and 39 % it states.
    const embedding = 128256 * 4096;
    const sxm = GPUS.h100.bf16Flops.value;
    expect(H100_GRAND_TETON.bf16Flops.value).toBe(sxm);
    expect(mfu(flopsPerToken(LLAMA3_8B, embedding), 5762, sxm)).toBeCloseTo(0.337, 3);
    expect(mfu(flopsPerToken(LLAMA3_8B, embedding), 6667, sxm)).toBeCloseTo(0.39, 3);
    // The simulation's 50 % of peak is the A100 runs' range (51–61 %), not this 500 W part's 33 %:
    // so its H100 rows come out about 40 % fast, shown and not counted.
    const h100 = throughputRows().filter((r) => !r.published.peakPublished);
    expect(h100).toHaveLength(2);
    for (const r of h100) {
      expect(r.error).toBeGreaterThan(0.35);
      expect(r.error).toBeLessThan(0.5);
    }
  });

  it('uses the simulation’s default efficiency, not a constant fitted to these figures', () => {
    expect(DEFAULT_SIM_EFFICIENCY).toBe(0.5);
    expect(SIM_DEFAULT_EFFICIENCY).toBe(DEFAULT_SIM_EFFICIENCY);
    for (const r of throughputRows()) {
      expect(r.published.run.efficiency, r.published.id).toBeUndefined();
      // Communication is there and mostly hidden: FSDP2 prefetch leaves the first all-gather and last reduce-scatter.
      expect(r.predicted.commSeconds).toBeGreaterThan(0);
      expect(r.predicted.exposedCommSeconds).toBeLessThan(0.05 * r.predicted.stepSeconds);
    }
  });

  it('reproduces at least three published figures, on GPUs whose peak is published, within ±25 %', () => {
    const rows = throughputRows().filter((r) => r.published.peakPublished);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const r of rows) expect(Math.abs(r.error), throughputMarkdown()).toBeLessThanOrEqual(0.25);
    // Pinned (simulated cluster; published figures as cited in published-throughput.ts).
    expect(throughputRows().map((r) => Math.round(r.predicted.tokensPerSecondPerGpu))).toEqual(
      PINNED,
    );
  });

  it('slows down when communication cannot hide: the same 8B step over 100 GbE Ethernet', () => {
    const base = PUBLISHED_THROUGHPUT[2]!.run;
    const fast = fsdpStep(base);
    const slow = fsdpStep({ ...base, preset: 'a100-100gbe' });
    expect(slow.exposedCommSeconds).toBeGreaterThan(fast.exposedCommSeconds);
    expect(slow.tokensPerSecondPerGpu).toBeLessThan(fast.tokensPerSecondPerGpu);
  });
});

const PINNED = [8040, 8079, 2547, 319, 1765];
