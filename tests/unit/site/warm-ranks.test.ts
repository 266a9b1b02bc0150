import { describe, expect, it } from 'vitest';
import {
  MAX_WARM_WORLD,
  mayWarm,
  WARM_MEMORY_SHARE,
  WARM_RANK_BYTES,
} from '../../../src/components/playground/warm-ranks.ts';

describe('warm ranks: what a device can afford ahead of a Run (issue 20)', () => {
  it('a laptop (8 GB, 8 cores) warms every world the book offers', () => {
    for (const world of [1, 2, 4, 8])
      expect(mayWarm(world, { deviceMemoryGB: 8, cores: 8 })).toBe(true);
  });

  it('memory caps the world: at most an eighth of device memory', () => {
    // 1 GB device: 128 MB share, so two 64 MB ranks fit and four do not.
    expect(WARM_RANK_BYTES * 2).toBeLessThanOrEqual(2 ** 30 * WARM_MEMORY_SHARE);
    expect(mayWarm(2, { deviceMemoryGB: 1, cores: 8 })).toBe(true);
    expect(mayWarm(4, { deviceMemoryGB: 1, cores: 8 })).toBe(false);
    expect(mayWarm(1, { deviceMemoryGB: 0.25, cores: 8 })).toBe(false);
  });

  it('no warming on one core; beyond the cores logical ranks share a worker a core, so workers are what count', () => {
    expect(mayWarm(1, { deviceMemoryGB: 8, cores: 1 })).toBe(false);
    expect(mayWarm(8, { deviceMemoryGB: 8, cores: 2 })).toBe(true);
    expect(mayWarm(8, { deviceMemoryGB: 8, cores: 1.5 })).toBe(false);
    // 16 ranks on 2 cores: 2 workers of 64 MB, within a 1 GB device's eighth (16 workers would not be).
    expect(mayWarm(16, { deviceMemoryGB: 1, cores: 2 })).toBe(true);
    expect(mayWarm(16, { deviceMemoryGB: 1, cores: 16 })).toBe(false);
    // A larger world is the reader's own choice and starts on Run.
    expect(mayWarm(MAX_WARM_WORLD * 2, { deviceMemoryGB: 8, cores: 8 })).toBe(false);
  });

  it('save-data means nothing is fetched ahead; unknown hints are taken as a small laptop (4 GB, 2 cores)', () => {
    expect(mayWarm(1, { deviceMemoryGB: 8, cores: 8, saveData: true })).toBe(false);
    expect(mayWarm(8, {})).toBe(true);
    expect(mayWarm(4, { deviceMemoryGB: 0.5 })).toBe(false);
  });
});
