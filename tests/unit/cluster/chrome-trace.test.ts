import { describe, expect, it } from 'vitest';
import { chromeTrace, traceThreadId } from '../../../playground/cluster/chrome-trace.ts';
import type { VirtualTraceEvent } from '../../../playground/contract/protocol.ts';
import { virtualSpanInfo } from '../../../playground/cluster/virtual-span-info.ts';
import { eventFromRank } from '../../../playground/cluster/rank-events.ts';
import { parseCliArgs } from '../../../playground/cli/cli-args.ts';
import { traceWriteFlags } from '../../../playground/cli/trace-file.ts';

// Spans as today's runtime sends them (name + lane only) and as the richer contract allows.
const spans: VirtualTraceEvent[] = [
  { rank: 0, lane: 'compute', name: 'forward', start: 0, end: 0.001, step: 0 },
  { rank: 0, lane: 'compute', name: 'backward', start: 0.001, end: 0.003, step: 0 },
  {
    rank: 0,
    lane: 'comm',
    name: 'allReduce 4.19 MB',
    start: 0.002,
    end: 0.0035,
    step: 0,
    bytes: 4.19e6,
  },
  { rank: 3, lane: 'comm', name: 'send → 1 4 MB', start: 0.002, end: 0.004, step: 0, bytes: 4e6 },
  {
    rank: 2,
    lane: 'comm',
    name: 'bucket 2 all-reduce',
    start: 0.0021,
    end: 0.0029,
    step: 1,
    bytes: 26_214_400,
    kind: 'collective',
    index: 2,
    collective: 'all-reduce',
    algorithm: 'ring',
    protocol: 'Simple',
    busGBps: 180.5,
    configuration: 'overlap on',
  },
];

/** The checks ui.perfetto.dev's JSON importer relies on, written out as a schema check. */
function checkSchema(json: unknown): void {
  const trace = json as Record<string, unknown>;
  expect(Object.keys(trace)).toEqual(expect.arrayContaining(['traceEvents', 'displayTimeUnit']));
  expect(trace.displayTimeUnit).toBe('ms');
  expect(Array.isArray(trace.traceEvents)).toBe(true);
  for (const e of trace.traceEvents as Record<string, unknown>[]) {
    expect(['X', 'M']).toContain(e.ph);
    expect(typeof e.name).toBe('string');
    expect(Number.isInteger(e.pid) && (e.pid as number) >= 0).toBe(true);
    expect(Number.isInteger(e.tid) && (e.tid as number) >= 0).toBe(true);
    if (e.ph === 'X') {
      expect(typeof e.ts === 'number' && Number.isFinite(e.ts) && e.ts >= 0).toBe(true);
      expect(typeof e.dur === 'number' && Number.isFinite(e.dur) && e.dur >= 0).toBe(true);
    } else {
      expect(['thread_name', 'process_name', 'thread_sort_index']).toContain(e.name);
      expect(typeof e.args).toBe('object');
    }
  }
}

describe('chromeTrace: a virtual run as Chrome trace-event JSON', () => {
  const trace = JSON.parse(JSON.stringify(chromeTrace(spans, { worldSize: 4, gpusPerNode: 2 })));

  it('is valid trace-event JSON: X and M events, µs numbers, integer pid/tid', () => {
    checkSchema(trace);
  });

  it('names one thread per rank stream, rank k compute and rank k comm, each once', () => {
    const names = trace.traceEvents.filter((e: { name: string }) => e.name === 'thread_name') as {
      pid: number;
      tid: number;
      args: { name: string };
    }[];
    expect(names.length).toBe(8);
    expect(new Set(names.map((n) => n.tid)).size).toBe(8);
    for (let r = 0; r < 4; r++)
      for (const lane of ['compute', 'comm'] as const) {
        const n = names.find((m) => m.tid === traceThreadId(r, lane))!;
        expect(n.args.name).toBe(`rank ${r} ${lane}`);
        expect(n.pid).toBe(Math.floor(r / 2)); // pid = node
      }
    // Every complete event sits on a named thread of its own rank and stream.
    for (const e of trace.traceEvents.filter((x: { ph: string }) => x.ph === 'X'))
      expect(names.some((n) => n.tid === e.tid && n.pid === e.pid)).toBe(true);
  });

  it('puts times in microseconds and carries bytes, collective, algorithm, protocol and bandwidth in args', () => {
    const x = trace.traceEvents.filter((e: { ph: string }) => e.ph === 'X');
    expect(x).toHaveLength(spans.length);
    const ar = x.find((e: { name: string }) => e.name === 'all-reduce 4.19 MB');
    expect(ar).toMatchObject({ ts: 2000, dur: 1500, tid: 1, pid: 0, cat: 'collective' });
    expect(ar.args).toMatchObject({ bytes: 4.19e6, collective: 'all-reduce', step: 0 });
    const bucket = x.find((e: { name: string }) => e.name === 'bucket 2 all-reduce');
    expect(bucket).toMatchObject({ tid: 5, pid: 1, ts: 2100, dur: 800 });
    expect(bucket.args).toEqual({
      step: 1,
      bytes: 26_214_400,
      collective: 'all-reduce',
      algorithm: 'ring',
      protocol: 'Simple',
      busGBps: 180.5,
      index: 2,
      configuration: 'overlap on',
    });
    expect(x.find((e: { name: string }) => e.name === 'send → 1 4 MB').cat).toBe('p2p');
  });

  it('without a node size puts every rank on pid 0', () => {
    const flat = chromeTrace(spans);
    expect(new Set(flat.traceEvents.map((e) => e.pid))).toEqual(new Set([0]));
  });
});

describe('virtualSpanInfo: reads new spans as they are and old ones from their name', () => {
  it('classifies today’s names', () => {
    expect(virtualSpanInfo({ lane: 'compute', name: 'forward' })).toEqual({
      kind: 'forward',
      label: 'forward',
    });
    expect(virtualSpanInfo({ lane: 'compute', name: 'backward (layer 3)' }).kind).toBe('backward');
    expect(virtualSpanInfo({ lane: 'compute', name: 'compute' }).kind).toBe('compute');
    expect(virtualSpanInfo({ lane: 'comm', name: 'reduceScatter 1.05 MB' })).toEqual({
      kind: 'collective',
      label: 'reduce-scatter 1.05 MB',
      collective: 'reduce-scatter',
    });
    expect(virtualSpanInfo({ lane: 'comm', name: 'recv ← 0 4 MB' }).kind).toBe('p2p');
  });

  it('reads the new labels, with or without kind and collective', () => {
    expect(virtualSpanInfo({ lane: 'comm', name: 'unit 4 all-gather' })).toEqual({
      kind: 'collective',
      label: 'unit 4 all-gather',
      collective: 'all-gather',
    });
    expect(
      virtualSpanInfo({
        lane: 'comm',
        name: 'bucket 2 all-reduce',
        kind: 'collective',
        collective: 'all-reduce',
      }).collective,
    ).toBe('all-reduce');
    expect(virtualSpanInfo({ lane: 'compute', name: 'step', kind: 'optimizer' }).kind).toBe(
      'optimizer',
    );
  });
});

describe("a virtual span's detail crosses the rank's channel", () => {
  it('keeps the valid optional fields and drops malformed ones', () => {
    const e = eventFromRank(
      {
        type: 'virtual-trace',
        events: [
          { ...spans[4], rank: 9 },
          { ...spans[0], kind: 'nap', index: 'two', busGBps: Number.NaN, algorithm: 7 },
        ],
      },
      2,
    );
    expect(e).toEqual({
      type: 'virtual-trace',
      rank: 2,
      events: [
        { ...spans[4], rank: 2 },
        { ...spans[0], rank: 2 },
      ],
    });
  });
});

describe('npm run ranks -- run … --trace out.json', () => {
  it('takes a trace path with --cluster and refuses it without', () => {
    const args = parseCliArgs(['run', 'a.ts', '--cluster', 'h100-ndr', '--trace', 'out.json']);
    expect(args).toMatchObject({ trace: 'out.json', cluster: { preset: 'h100-ndr' } });
    // The permission model lets the ranks write that one file (absolute), and nothing without the flag.
    expect(traceWriteFlags(['run', 'a.ts', '--trace', '/tmp/t.json'])).toEqual([
      '--allow-fs-write=/tmp/t.json',
    ]);
    expect(traceWriteFlags(['run', 'a.ts', '--cluster', 'h100-ndr'])).toEqual([]);
    expect(() => parseCliArgs(['run', 'a.ts', '--trace', 'out.json'])).toThrow(
      /--trace needs --cluster/,
    );
  });
});
