import { describe, expect, it } from 'vitest';
import {
  BACKWARD_SHARE,
  commToComputeRatio,
  computeSeconds,
  estimateStep,
  H100_BF16_DENSE_FLOPS,
  H100_MEMORY_BYTES,
  overlappedStepSeconds,
  shapeForWorld,
} from '../../../src/lib/figures/efficiency';
import {
  clusterPreset,
  clusterShape,
  predictCollective,
} from '../../../playground/simulation/index.ts';

describe('step-time model on the cluster presets', () => {
  it('compute is 6Ψ FLOPs per token (2 forward + 4 backward) over achieved FLOP/s', () => {
    const f = computeSeconds(7e9, 4096, 'forward', 1e15, 0.5);
    const b = computeSeconds(7e9, 4096, 'backward', 1e15, 0.5);
    expect(f + b).toBeCloseTo((6 * 7e9 * 4096) / 0.5e15, 12);
    expect(b / f).toBe(2);
    expect(BACKWARD_SHARE).toBe(4 / 6);
  });
  it('the H100 figures are the preset list’s, not a second copy', () => {
    const gpu = clusterPreset('h100-ndr').gpu;
    expect(H100_BF16_DENSE_FLOPS).toBe(gpu.bf16Flops.value);
    expect(H100_MEMORY_BYTES).toBe(gpu.hbmBytes.value);
    expect(H100_MEMORY_BYTES).toBe(80e9);
  });
  it('one overlap rule: communication hides behind backward only, never behind forward', () => {
    expect(overlappedStepSeconds(1, 2, 1.5)).toBe(3);
    expect(overlappedStepSeconds(1, 2, 3)).toBe(4);
    expect(overlappedStepSeconds(1, 2, 3, 0)).toBe(6);
    expect(overlappedStepSeconds(1, 2, 3, 0.5)).toBe(4.5);
  });
  it('the all-reduce is the cluster model’s, and compute uses the preset GPU', () => {
    const cluster = clusterShape('a100-hdr', 4, 8);
    const e = estimateStep({ params: 1e9, tokensPerGpu: 2048, cluster });
    expect(e.allReduce).toBe(predictCollective(cluster, 'all-reduce', 2e9).seconds);
    expect(e.collective.algorithm).toBe(predictCollective(cluster, 'all-reduce', 2e9).algorithm);
    expect(e.backward).toBeCloseTo((4 * 1e9 * 2048) / (312e12 * 0.4), 12);
    expect(e.gpus).toBe(32);
  });
  it('the 7B example on 8 DGX H100 nodes: ≈70 ms all-reduce (NVLS + tree), ≈75 ms without NVLS', () => {
    const nvls = estimateStep({
      params: 7e9,
      tokensPerGpu: 4096,
      cluster: shapeForWorld('h100-ndr', 64),
    });
    const ring = estimateStep({
      params: 7e9,
      tokensPerGpu: 4096,
      cluster: shapeForWorld('h100-ndr-no-nvls', 64),
    });
    expect(nvls.allReduce).toBeGreaterThan(0.065);
    expect(nvls.allReduce).toBeLessThan(0.075);
    expect(nvls.collective.algorithm).toBe('nvls-tree');
    expect(ring.collective.algorithm).toBe('ring');
    expect(ring.allReduce).toBeGreaterThan(nvls.allReduce);
    expect(nvls.bound).toBe('compute');
    expect(nvls.efficiency).toBe(1);
  });
  it('the all-reduce hides behind backward until it is longer, then the job is network bound', () => {
    const cluster = shapeForWorld('a100-100gbe', 64);
    const small = estimateStep({ params: 7e9, tokensPerGpu: 64, cluster });
    const large = estimateStep({ params: 7e9, tokensPerGpu: 65536, cluster });
    expect(small.bound).toBe('network');
    expect(large.bound).toBe('compute');
    expect(large.stepOverlapped).toBeCloseTo(large.compute, 12);
    expect(large.efficiency).toBe(1);
    expect(small.efficiency).toBeLessThan(1);
  });
  it('at the break-even token count the all-reduce equals the backward pass', () => {
    const cluster = shapeForWorld('rtx4090-pcie', 8);
    const e = estimateStep({ params: 1e9, tokensPerGpu: 1000, cluster });
    const at = estimateStep({ params: 1e9, tokensPerGpu: e.breakEvenTokensPerGpu, cluster });
    expect(at.backward).toBeCloseTo(at.allReduce, 9);
  });
  it('serial step = compute + communication ≥ overlapped step', () => {
    const e = estimateStep({
      params: 1e9,
      tokensPerGpu: 2048,
      cluster: shapeForWorld('a100-hdr', 16),
    });
    expect(e.stepSerial).toBeCloseTo(e.compute + e.allReduce, 12);
    expect(e.stepSerial).toBeGreaterThanOrEqual(e.stepOverlapped);
    expect(commToComputeRatio(e)).toBeCloseTo(e.allReduce / e.compute, 12);
  });
  it('one GPU never communicates; worlds fill whole nodes or part of one', () => {
    expect(
      estimateStep({ params: 1e9, tokensPerGpu: 1, cluster: shapeForWorld('h100-ndr', 1) })
        .allReduce,
    ).toBe(0);
    expect(shapeForWorld('h100-ndr', 4)).toMatchObject({ nodes: 1, gpusPerNode: 4 });
    expect(shapeForWorld('h100-ndr', 64)).toMatchObject({ nodes: 8, gpusPerNode: 8 });
    expect(() => shapeForWorld('h100-ndr', 12)).toThrow(/whole 8-GPU nodes/);
  });
});
