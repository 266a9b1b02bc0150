import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommStats, TraceEvent } from '../../../playground/contract/protocol.ts';
import { startWorld, type TestWorld } from './harness/world-harness.ts';

type Counter = CommStats;
type WithStats = { values: unknown[]; before: Counter; stats: Counter; traces: TraceEvent[] };

const delta = (o: WithStats, kind: keyof CommStats) => ({
  sent: (o.stats[kind]?.sent ?? 0) - (o.before[kind]?.sent ?? 0),
  received: (o.stats[kind]?.received ?? 0) - (o.before[kind]?.received ?? 0),
  calls: (o.stats[kind]?.calls ?? 0) - (o.before[kind]?.calls ?? 0),
});

describe('byte counts and traces, world of 4', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await startWorld(4);
  });
  afterAll(async () => {
    await w.close();
  });

  it('ring (4096 elements: chunks of 1024): each rank receives 2(n−1) chunks from its left neighbour, one trace event per step', async () => {
    const out = await w.values<WithStats>('callsWithStats', [
      { kind: 'allReduce', input: new Float32Array(4096), algorithm: 'ring' },
    ]);
    out.forEach((o, rank) => {
      expect(delta(o, 'allReduce')).toEqual({
        sent: 2 * 3 * 1024 * 4,
        received: 2 * 3 * 1024 * 4,
        calls: 1,
      });
      const steps = o.traces.filter((t) => t.kind === 'allReduce');
      expect(steps.map((t) => t.step)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(steps.map((t) => t.label)).toEqual([
        'reduce-scatter',
        'reduce-scatter',
        'reduce-scatter',
        'all-gather',
        'all-gather',
        'all-gather',
      ]);
      for (const t of steps) {
        expect(t).toMatchObject({ rank, algorithm: 'ring', peer: (rank + 3) % 4, bytes: 4096 });
        expect(t.end).toBeGreaterThanOrEqual(t.start);
      }
    });
  });

  it('two-shot: (n−1) chunks read and (n−1) written by each rank', async () => {
    const out = await w.values<WithStats>('callsWithStats', [
      { kind: 'allReduce', input: new Int32Array(4096), algorithm: 'two-shot' },
    ]);
    for (const o of out) {
      expect(delta(o, 'allReduce')).toEqual({
        sent: 3 * 1024 * 4,
        received: 3 * 1024 * 4,
        calls: 1,
      });
      expect(o.traces.map((t) => t.algorithm)).toEqual(['two-shot', 'two-shot', 'two-shot']);
    }
  });

  it('across ranks, bytes sent equal bytes received for every kind', async () => {
    const out = await w.values<WithStats>('callsWithStats', (r: number) => [
      { kind: 'reduceScatter', input: new Float32Array(1003) },
      { kind: 'allGather', input: new Float32Array(10) },
      { kind: 'broadcast', input: new Float32Array(77), src: 1 },
      { kind: 'reduce', input: new Float32Array(50), dst: 2 },
      {
        kind: 'scatter',
        input: r === 3 ? new Float32Array(40) : null,
        sliceLength: 10,
        dtype: 'float32',
        src: 3,
      },
      { kind: 'gather', input: new Float32Array(9), dst: 0 },
    ]);
    for (const kind of [
      'reduceScatter',
      'allGather',
      'broadcast',
      'reduce',
      'scatter',
      'gather',
    ] as const) {
      const sent = out.reduce((a, o) => a + delta(o, kind).sent, 0);
      const received = out.reduce((a, o) => a + delta(o, kind).received, 0);
      expect(sent, kind).toBe(received);
      expect(sent, kind).toBeGreaterThan(0);
      for (const o of out) expect(delta(o, kind).calls).toBe(1);
    }
  });
});
