// Issue 30, point 3: a 1,024-rank run's virtual trace stays readable: the record keeps rank 0's spans and
// each step's fastest and slowest rank's, knows when every rank arrived, and the trace file says what it holds.
import { describe, expect, it } from 'vitest';
import { RunRecord } from '../../../playground/cluster/run-record.ts';
import { chromeTrace } from '../../../playground/cluster/chrome-trace.ts';
import type { VirtualTraceEvent } from '../../../playground/contract/protocol.ts';

const WORLD = 1024;
/** Rank r's spans of one step: a forward and an all-reduce ending at `end`. */
const stepSpans = (rank: number, step: number, end: number): VirtualTraceEvent[] => [
  { rank, step, lane: 'compute', name: 'forward', start: step, end: end - 0.001 },
  { rank, step, lane: 'comm', name: 'allReduce 4 MB', start: end - 0.001, end, bytes: 4e6 },
];
/** Step 0's straggler is rank 700, step 1's rank 9; rank 5 is always first; the rest arrive in rank order. */
const arrival = (rank: number, step: number) =>
  step + 0.5 + (rank === 5 ? 0 : rank === [700, 9][step] ? 0.4 : 0.1 + rank / 1e5);

function largeRun(): RunRecord {
  const record = new RunRecord(WORLD, { preset: 'h100-ndr', nodes: 128, gpusPerNode: 8 });
  for (const step of [0, 1])
    for (let k = 0; k < WORLD; k++) {
      const rank = (k * 389) % WORLD; // ranks report in no particular order
      record.add({
        type: 'virtual-trace',
        rank,
        events: stepSpans(rank, step, arrival(rank, step)),
      });
    }
  return record;
}

describe('a large world’s record and trace', () => {
  const record = largeRun();

  it('keeps rank 0’s spans and each step’s fastest and slowest rank’s, not 1,024 ranks’', () => {
    const kept = record.virtualTrace;
    expect(record.virtualTraceTotal).toBe(2 * 2 * WORLD);
    const ranksOf = (step: number) =>
      [...new Set(kept.filter((s) => s.step === step).map((s) => s.rank))].sort((a, b) => a - b);
    expect(ranksOf(0)).toEqual([0, 5, 700]);
    expect(ranksOf(1)).toEqual([0, 5, 9]);
    expect(kept).toHaveLength(2 * 3 * 2);
  });

  it('knows every rank’s arrival: the percentiles are over all 1,024 ranks', () => {
    const step0 = record.arrivals(0)!;
    expect(step0.ranks).toBe(WORLD);
    expect(step0.picks.map((p) => [p.role, p.rank])).toEqual([
      ['fastest', 5],
      ['p50', 512],
      ['p90', 922],
      ['p99', 1014],
      ['slowest', 700],
    ]);
    expect(step0.skew).toBeCloseTo(0.4, 9);
    expect(record.arrivals()!.picks.at(-1)!.rank).toBe(9);
    // Up to 16 ranks nothing changes: the first spans, no arrival table.
    expect(new RunRecord(16).arrivals()).toBeNull();
  });

  it('writes a trace of the kept ranks, each named with its role, and says what it holds', () => {
    const trace = chromeTrace(record.virtualTrace, {
      worldSize: WORLD,
      gpusPerNode: 8,
      arrival: record.arrivals(),
    });
    const names = trace.traceEvents
      .filter((e) => e.name === 'thread_name')
      .map((e) => e.args!.name);
    expect(names).toEqual([
      'rank 0 compute',
      'rank 0 comm',
      'rank 5 compute (fastest)',
      'rank 5 comm (fastest)',
      'rank 9 compute (slowest)',
      'rank 9 comm (slowest)',
      'rank 700 compute',
      'rank 700 comm',
    ]);
    expect(trace.traceEvents.filter((e) => e.ph === 'X')).toHaveLength(12);
    expect(trace.otherData.ranks).toMatch(/^4 of 1,024 ranks, so the file stays readable/);
    expect(trace.otherData.ranks).toContain('slowest rank 9 at 1900000 µs');
  });

  it('breaks ties between ranks that arrive together by rank, as the percentiles do', () => {
    const tied = new RunRecord(32);
    for (const rank of [7, 3, 0, 20, 12])
      tied.add({ type: 'virtual-trace', rank, events: stepSpans(rank, 0, 1) });
    const ranks = [...new Set(tied.virtualTrace.map((s) => s.rank))].sort((a, b) => a - b);
    const picks = tied.arrivals(0)!.picks;
    // Rank 0 is the fastest (lowest of the tied ranks), rank 20 the slowest (highest): one kept besides rank 0.
    expect(picks[0]!.rank).toBe(0);
    expect(ranks).toEqual([0, 20]);
    expect(picks.at(-1)!.rank).toBe(20);
  });

  it('cuts every rank’s spans to rank 0 and the percentile ranks when nobody chose them', () => {
    const every = Array.from({ length: 64 }, (_, r) => stepSpans(r, 0, 1 + r / 1000)).flat();
    const trace = chromeTrace(every, { worldSize: 64 });
    const ranks = new Set(trace.traceEvents.filter((e) => e.ph === 'X').map((e) => e.tid >> 1));
    expect([...ranks]).toEqual([0, 32, 57, 62, 63]);
    expect(trace.otherData.ranks).toMatch(/^5 of 64 ranks/);
  });
});
