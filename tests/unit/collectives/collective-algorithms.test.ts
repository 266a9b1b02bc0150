import { describe, expect, it } from 'vitest';
import { ALL_REDUCE_ALGORITHMS, COLLECTIVE_KINDS } from '../../../playground/contract/protocol.ts';
import {
  collectiveCost,
  COLLECTIVE_ALGORITHMS,
} from '../../../playground/collectives/collective-algorithms.ts';
import { ALGORITHMS, predictCollective } from '../../../playground/simulation/collective-model.ts';
import { resolveCluster } from '../../../playground/simulation/cluster-options.ts';
import { RankSimulation } from '../../../playground/simulation/rank-simulation.ts';

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

  it('the clock times a call by its entry: a forced NCCL algorithm as NCCL_ALGO would, none as the tuner picks', () => {
    // 2 nodes × 2 GPUs, 16 MiB: the tuner picks tree here, so forcing ring is visible.
    const cluster = resolveCluster({ preset: 'h100-ndr', nodes: 2, gpusPerNode: 2 });
    const sim = new RankSimulation(0, cluster, {
      trace: () => {},
      step: () => {},
      notice: () => {},
    });
    const members = [0, 1, 2, 3];
    const length = (16 << 20) / 4;
    const issued = { ready: 0, work: { end: 0 }, byteScale: 1 };
    const tuner = predictCollective(cluster.shape, 'all-reduce', 16 << 20);
    const ring = predictCollective(cluster.shape, 'all-reduce', 16 << 20, { algorithm: 'ring' });
    expect(tuner.algorithm).toBe('tree');
    expect(ring.seconds).toBeGreaterThan(tuner.seconds);
    // The reader's 'ring' and 'two-shot' are this machine's algorithms: both timed as the tuner's pick.
    for (const name of ['ring', 'two-shot'] as const)
      expect(
        sim.collectivePrediction(collectiveCost('allReduce', name), length, members, issued),
      ).toEqual(tuner);
    // An entry that names an NCCL algorithm is timed as it, charged or not.
    const forced = { ...collectiveCost('allReduce', 'ring'), algorithm: 'ring' as const };
    expect(sim.collectivePrediction(forced, length, members, issued)).toEqual(ring);
    const charged = {
      ...issued,
      charged: { collective: 'all-reduce' as const, bytes: 16 << 20, name: 'bucket 0 all-reduce' },
    };
    expect(sim.collectivePrediction(forced, 1, members, charged)).toEqual(ring);
    // Every entry's algorithm, where it names one, is one NCCL has.
    for (const kind of Object.keys(COLLECTIVE_ALGORITHMS) as (keyof typeof COLLECTIVE_ALGORITHMS)[])
      for (const entry of Object.values(COLLECTIVE_ALGORITHMS[kind]) as {
        cost: { algorithm?: string };
      }[])
        if (entry.cost.algorithm) expect(ALGORITHMS).toContain(entry.cost.algorithm);
  });
});
