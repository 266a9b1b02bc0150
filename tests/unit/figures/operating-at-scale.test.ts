import { describe, expect, it } from 'vitest';
import { ringAllReduceSeconds } from '../../../src/lib/figures/all-reduce-time';
import { linkPreset } from '../../../src/lib/figures/link-presets';
import {
  DILOCO,
  flatRingSeconds,
  hierarchicalSeconds,
  hsdpBytesPerRank,
  jobMtbfHours,
  jobSurvival,
  LLAMA3_INTERRUPTIONS,
  llama3FailureRates,
  localSgdCommReduction,
  reshardReads,
  shardRange,
} from '../../../src/lib/figures/operating-at-scale';

const cluster = {
  nodes: 16,
  gpusPerNode: 8,
  intra: linkPreset('nvlink'),
  inter: linkPreset('infiniband'),
};

describe('hierarchical all-reduce in the α–β model', () => {
  it('the flat ring runs all 2(N−1) steps at network speed', () => {
    expect(flatRingSeconds(14e9, cluster)).toBe(ringAllReduceSeconds(14e9, 128, cluster.inter));
  });
  it('hierarchical: NVLink reduce-scatter + all-gather, and a 1/g slice per rail across nodes', () => {
    const h = hierarchicalSeconds(14e9, cluster);
    expect(h.inter).toBe(ringAllReduceSeconds(14e9 / 8, 16, cluster.inter));
    expect(h.total).toBeLessThan(flatRingSeconds(14e9, cluster));
    // the latency term: 2·(16−1) network steps instead of 2·(128−1)
    const tiny = hierarchicalSeconds(8, cluster);
    expect(tiny.inter).toBeCloseTo(30 * cluster.inter.alpha, 9);
    expect(flatRingSeconds(8, cluster)).toBeCloseTo(254 * cluster.inter.alpha, 9);
  });
});

describe('HSDP', () => {
  it('shards within a node and all-reduces one shard across replicas', () => {
    const b = hsdpBytesPerRank(7e9, 2, 8, 16);
    expect(b.reduceScatter).toBeCloseTo((7 / 8) * 14e9, 0);
    expect(b.allGather).toBeCloseTo(2 * (7 / 8) * 14e9, 0);
    expect(b.allReduce).toBeCloseTo(2 * (15 / 16) * (14e9 / 8), 0);
  });
});

describe('failures at scale', () => {
  it('Llama 3: 419 unexpected interruptions in 54 days on 16,384 GPUs, one every ~3.1 h', () => {
    const r = llama3FailureRates();
    expect(LLAMA3_INTERRUPTIONS.total).toBeGreaterThan(LLAMA3_INTERRUPTIONS.unexpected);
    expect(r.jobMtbfHours).toBeCloseTo(3.093, 3);
    expect(jobMtbfHours(16_384, r.perGpuMtbfHours)).toBeCloseTo(r.jobMtbfHours, 9);
  });
  it('survival falls exponentially with GPUs × hours', () => {
    expect(jobSurvival(1, 0, 1000)).toBe(1);
    expect(jobSurvival(2000, 1, 1e5)).toBeCloseTo(Math.exp(-0.02), 12);
    expect(jobSurvival(4000, 1, 1e5)).toBeCloseTo(jobSurvival(2000, 1, 1e5) ** 2, 12);
  });
});

describe('sharded checkpoints', () => {
  it('shards cover the vector exactly once', () => {
    const ranges = [0, 1, 2, 3].map((r) => shardRange(10, 4, r));
    expect(ranges).toEqual([
      { start: 0, end: 3 },
      { start: 3, end: 6 },
      { start: 6, end: 9 },
      { start: 9, end: 10 },
    ]);
  });
  it('reloading a world-4 checkpoint at world 2: each new rank reads two old shards', () => {
    expect(reshardReads(16, 4, 2, 0)).toEqual([
      { from: 0, start: 0, end: 4 },
      { from: 1, start: 4, end: 8 },
    ]);
    expect(reshardReads(16, 4, 2, 1)).toEqual([
      { from: 2, start: 8, end: 12 },
      { from: 3, start: 12, end: 16 },
    ]);
    expect(reshardReads(10, 4, 3, 1).map((r) => r.from)).toEqual([1, 2]);
  });
});

describe('low-communication data parallelism', () => {
  it('DiLoCo: 8 workers, 500 inner steps, so 500× fewer exchanges than synchronous DP', () => {
    expect(localSgdCommReduction(DILOCO.innerSteps)).toBe(500);
    expect(DILOCO.workers).toBe(8);
  });
});
