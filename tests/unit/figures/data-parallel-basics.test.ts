import { describe, expect, it } from 'vitest';
import {
  largestReplicatedModel,
  replicaBytesPerParam,
  shardSizes,
} from '../../../src/lib/figures/data-parallel-basics';

describe('shardSizes', () => {
  it('splits evenly when it can and never loses a row', () => {
    expect(shardSizes(256, 4)).toEqual([64, 64, 64, 64]);
    expect(shardSizes(16, 3)).toEqual([6, 5, 5]);
    for (const [b, p] of [
      [0, 3],
      [1, 8],
      [1000, 7],
    ])
      expect(shardSizes(b!, p!).reduce((a, c) => a + c, 0)).toBe(b);
  });
  it('rejects nonsense', () => {
    expect(() => shardSizes(4, 0)).toThrow(/ranks/);
    expect(() => shardSizes(-1, 2)).toThrow(/batch/);
  });
});

describe('replicated training state', () => {
  it('is 16 bytes per parameter for mixed-precision Adam (ZeRO paper, section 3.1: 2 + 2 + K=12)', () => {
    expect(replicaBytesPerParam('bf16-mixed', 'adam')).toBe(16);
  });
  it('is 16 bytes for fp32 Adam too (4 + 4 + 8) and 8 for plain fp32 SGD', () => {
    expect(replicaBytesPerParam('fp32', 'adam')).toBe(16);
    expect(replicaBytesPerParam('fp32', 'sgd')).toBe(8);
  });
  it('an 80 GB accelerator holds the training state of at most 5B parameters under mixed-precision Adam', () => {
    expect(largestReplicatedModel(80e9, 'bf16-mixed', 'adam')).toBe(5e9);
  });
});
