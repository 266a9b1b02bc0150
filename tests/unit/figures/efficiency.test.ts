import { describe, expect, it } from 'vitest';
import {
  commToComputeRatio,
  computeSeconds,
  estimateStep,
  H100_BF16_DENSE_FLOPS,
} from '../../../src/lib/figures/efficiency';
import { ringAllReduceSeconds } from '../../../src/lib/figures/all-reduce-time';
import { linkPreset } from '../../../src/lib/figures/link-presets';

describe('step-time model', () => {
  it('compute is 6Ψ FLOPs per token (2 forward + 4 backward) over achieved FLOP/s', () => {
    const f = computeSeconds(7e9, 4096, 'forward', 1e15, 0.5);
    const b = computeSeconds(7e9, 4096, 'backward', 1e15, 0.5);
    expect(f + b).toBeCloseTo((6 * 7e9 * 4096) / 0.5e15, 12);
    expect(b / f).toBe(2);
    expect(H100_BF16_DENSE_FLOPS).toBe(989e12);
  });
  it('the all-reduce hides behind backward until it is longer, then the job is network bound', () => {
    const link = linkPreset('infiniband');
    const small = estimateStep({ params: 7e9, tokensPerGpu: 64, gpus: 64, link });
    const large = estimateStep({ params: 7e9, tokensPerGpu: 65536, gpus: 64, link });
    expect(small.bound).toBe('network');
    expect(large.bound).toBe('compute');
    expect(large.stepOverlapped).toBeCloseTo(large.compute, 12);
    expect(large.efficiency).toBe(1);
    expect(small.efficiency).toBeLessThan(1);
    expect(small.allReduce).toBe(ringAllReduceSeconds(7e9 * 2, 64, link));
  });
  it('at the break-even token count the all-reduce equals the backward pass', () => {
    const link = linkPreset('ethernet');
    const e = estimateStep({ params: 1e9, tokensPerGpu: 1000, gpus: 8, link });
    const at = estimateStep({ params: 1e9, tokensPerGpu: e.breakEvenTokensPerGpu, gpus: 8, link });
    expect(at.backward).toBeCloseTo(at.allReduce, 9);
  });
  it('serial step = compute + communication ≥ overlapped step', () => {
    const e = estimateStep({ params: 1e9, tokensPerGpu: 2048, gpus: 8, link: linkPreset('pcie') });
    expect(e.stepSerial).toBeCloseTo(e.compute + e.allReduce, 12);
    expect(e.stepSerial).toBeGreaterThanOrEqual(e.stepOverlapped);
    expect(commToComputeRatio(e)).toBeCloseTo(e.allReduce / e.compute, 12);
  });
  it('one GPU never communicates', () => {
    expect(
      estimateStep({ params: 1e9, tokensPerGpu: 1, gpus: 1, link: linkPreset('ethernet') })
        .allReduce,
    ).toBe(0);
  });
});
