import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../../playground/cluster/protocol';
import { runProgram } from '../../../playground/cluster/node';
import {
  chunkReceived,
  contributors,
  popcount,
  ringAllReduceSchedule,
  ringFrames,
  type RingTraceEvent,
} from '../../../src/lib/figures/ring-schedule';

// Type-level check: the schedule's events are the runtime's TraceEvents.
const asTrace: (e: RingTraceEvent) => TraceEvent = (e) => e;

describe.each([3, 4, 5, 8])('ring all-reduce schedule on %i ranks', (n) => {
  const bytes = 4 * n * 96;
  const events = ringAllReduceSchedule(n, bytes);

  it('has 2(n−1) steps, one send per rank per step, each of D/n bytes', () => {
    const steps = new Set(events.map((e) => e.step));
    expect(steps.size).toBe(2 * (n - 1));
    expect(events).toHaveLength(2 * (n - 1) * n);
    for (const e of events) expect(e.bytes).toBe(bytes / n);
    expect(events.map(asTrace).every((e) => e.kind === 'allReduce')).toBe(true);
  });

  it('ends with every chunk fully reduced on every rank (bitmask replay)', () => {
    const frames = ringFrames(n, events);
    expect(frames).toHaveLength(2 * (n - 1) + 1);
    const full = (1 << n) - 1;
    for (const row of frames.at(-1)!) for (const mask of row) expect(mask).toBe(full);
    // After reduce-scatter each rank owns exactly one complete chunk.
    const afterRs = frames[n - 1]!;
    for (const row of afterRs) expect(row.filter((m) => m === full)).toHaveLength(1);
    expect(contributors(full, n)).toBe(Array.from({ length: n }, (_, r) => r).join('+'));
    expect(popcount(full)).toBe(n);
  });

  it('computes the element-wise sum when replayed on real numbers', () => {
    const per = bytes / 4 / n;
    const data = Array.from({ length: n }, (_, r) =>
      Array.from({ length: n * per }, (_, i) => Math.sin(r * 7 + i)),
    );
    const expected = data[0]!.map((_, i) => data.reduce((a, row) => a + row[i]!, 0));
    let buf = data.map((row) => row.slice());
    for (let s = 0; s < 2 * (n - 1); s++) {
      const next = buf.map((row) => row.slice());
      for (const e of events.filter((x) => x.step === s)) {
        const c = chunkReceived(e.rank, s, n);
        for (let i = c * per; i < (c + 1) * per; i++)
          next[e.rank]![i] = (s < n - 1 ? buf[e.rank]![i]! : 0) + buf[e.peer!]![i]!;
      }
      buf = next;
    }
    for (const row of buf) row.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 9));
  });

  it('sends 2(n−1)/n · D bytes per rank in total', () => {
    const sent = events.filter((e) => e.rank === 0).reduce((a, e) => a + e.bytes, 0);
    expect(sent).toBe(((2 * (n - 1)) / n) * bytes);
  });
});

it('rejects a ring of one', () => {
  expect(() => ringAllReduceSchedule(1, 64)).toThrow(/at least 2/);
});

it('matches the trace the runtime records for a live ring all-reduce', async () => {
  const n = 4,
    elements = 1024;
  const code = `import * as tf from '@tensorflow/tfjs';\nimport { dist } from 'ranks';\nawait dist.allReduce(tf.ones([${elements}]), { algorithm: 'ring' });`;
  const { result, events } = await runProgram({ code, worldSize: n, backend: 'cpu' });
  expect(result.ok).toBe(true);
  const live = events
    .flatMap((e) => (e.type === 'trace' ? e.events : []))
    .filter((e) => e.algorithm === 'ring');
  const key = (e: { rank: number; step?: number; peer?: number; bytes: number; label?: string }) =>
    `${e.rank}/${e.step}/${e.peer}/${e.bytes}/${e.label}`;
  expect(live.map(key).sort()).toEqual(
    ringAllReduceSchedule(n, elements * 4)
      .map(key)
      .sort(),
  );
}, 60_000);
