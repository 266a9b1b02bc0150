import { describe, expect, it } from 'vitest';
import { ALL_REDUCE_ALGORITHMS, COLLECTIVE_KINDS } from '../../../playground/contract/protocol.ts';
import {
  collectiveCost,
  COLLECTIVE_ALGORITHMS,
} from '../../../playground/collectives/collective-algorithms.ts';

describe('one registry: (collective, algorithm) → how it runs and what it costs', () => {
  it('every collective kind runs by at least one algorithm, and every all-reduce a reader may name is there', () => {
    expect(Object.keys(COLLECTIVE_ALGORITHMS).sort()).toEqual([...COLLECTIVE_KINDS].sort());
    for (const kind of COLLECTIVE_KINDS)
      for (const entry of Object.values(COLLECTIVE_ALGORITHMS[kind])) {
        expect(typeof entry.run, kind).toBe('function');
        expect(entry.cost.bytes(4, 2), kind).toBeGreaterThan(0);
      }
    const named = ALL_REDUCE_ALGORITHMS.filter((a) => a !== 'auto');
    expect(Object.keys(COLLECTIVE_ALGORITHMS.allReduce).sort()).toEqual([...named].sort());
  });

  it("costs are nccl-tests' sizes: a gather or scatter of b bytes a rank on n ranks is an all-gather of n × b; a barrier a 4-byte all-reduce with no data shown", () => {
    expect(collectiveCost('allReduce', 'two-shot')).toBe(collectiveCost('allReduce', 'ring'));
    const cases = [
      ['allReduce', 'all-reduce', 1000],
      ['reduceScatter', 'reduce-scatter', 1000],
      ['allGather', 'all-gather', 8000],
      ['gather', 'all-gather', 8000],
      ['scatter', 'all-gather', 8000],
      ['broadcast', 'broadcast', 1000],
      ['reduce', 'broadcast', 1000],
      ['barrier', 'all-reduce', 4],
    ] as const;
    for (const [kind, collective, bytes] of cases) {
      const cost = collectiveCost(kind, kind === 'allReduce' ? 'ring' : null);
      expect([cost.collective, cost.bytes(1000, 8)], kind).toEqual([collective, bytes]);
      expect(cost.carriesData, kind).toBe(kind !== 'barrier');
    }
    expect(() => collectiveCost('allReduce', 'tree')).toThrow(/no algorithm 'tree'/);
  });
});
