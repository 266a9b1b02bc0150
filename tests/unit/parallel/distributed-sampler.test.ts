import { describe, expect, it } from 'vitest';
import {
  DistributedSampler,
  seededShuffle,
  unequalShards,
} from '../../../playground/parallel/distributed-sampler.ts';

const shards = (
  n: number,
  w: number,
  opts: { shuffle?: boolean; dropLast?: boolean; seed?: number } = {},
) =>
  Array.from({ length: w }, (_, rank) =>
    new DistributedSampler(n, { numReplicas: w, rank, ...opts }).indices(),
  );

describe('DistributedSampler', () => {
  it('deals strided shards like PyTorch with shuffle off (the committed torch shards)', () => {
    expect(shards(16, 4, { shuffle: false })).toEqual([
      [0, 4, 8, 12],
      [1, 5, 9, 13],
      [2, 6, 10, 14],
      [3, 7, 11, 15],
    ]);
  });

  it('pads by repeating the first indices when N is not a multiple of W', () => {
    const s = shards(10, 4, { shuffle: false });
    expect(s.map((x) => x.length)).toEqual([3, 3, 3, 3]);
    expect(s.flat().sort((a, b) => a - b)).toEqual([0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('drops the tail with dropLast', () => {
    const s = shards(10, 4, { shuffle: false, dropLast: true });
    expect(s).toEqual([
      [0, 4],
      [1, 5],
      [2, 6],
      [3, 7],
    ]);
  });

  it('shuffles reproducibly per seed and epoch, covering every index once', () => {
    const a = shards(32, 4, { seed: 7 });
    expect(shards(32, 4, { seed: 7 })).toEqual(a);
    expect(a.flat().sort((x, y) => x - y)).toEqual(Array.from({ length: 32 }, (_, i) => i));
    const sampler = new DistributedSampler(32, { numReplicas: 4, rank: 0, seed: 7 });
    sampler.setEpoch(1);
    expect(sampler.indices()).not.toEqual(a[0]);
    expect(seededShuffle([1, 2, 3, 4, 5, 6, 7, 8], 3)).not.toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('builds deliberately unequal contiguous shards', () => {
    expect(unequalShards([6, 5, 5])).toEqual([
      [0, 1, 2, 3, 4, 5],
      [6, 7, 8, 9, 10],
      [11, 12, 13, 14, 15],
    ]);
  });
});
