import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasTorch, PYTHON } from '../../reference/python.ts';

// ranks_twin.merge_rank_traces turns every rank's torch.profiler export_chrome_trace into one trace in the shape of
// the page's Download trace (playground/cluster/chrome-trace.ts). Fed here the two forms torch exports: the legacy
// profiler's list (torch 1.13 on CPU: Gloo's collectives on their own threads) and Kineto's object (GPU kernels).
const TWINS = fileURLToPath(new URL('../../../content/twins/', import.meta.url));

const SCRIPT = `
import json, sys
from ranks_twin import merge_rank_traces
legacy = lambda: [
    {"name": "forward", "ph": "X", "ts": 100, "dur": 50, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "backward", "ph": "X", "ts": 150, "dur": 80, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "gloo:all_reduce", "ph": "X", "ts": 180, "dur": 60, "tid": 2, "pid": "CPU functions", "args": {}},
    {"name": "gloo:broadcast", "ph": "X", "ts": 20, "dur": 5, "tid": 3, "pid": "CPU functions", "args": {}},
]
kineto = {"traceEvents": [
    {"name": "aten::mm", "ph": "X", "cat": "cpu_op", "ts": 1700000000100, "dur": 9, "pid": 7, "tid": 7},
    {"name": "ampere_sgemm_128x64_nn", "ph": "X", "cat": "kernel", "ts": 1700000000110, "dur": 30, "pid": 0, "tid": 7},
    {"name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "ph": "X", "cat": "kernel", "ts": 1700000000120, "dur": 40, "pid": 0, "tid": 20},
    {"name": "flow", "ph": "s", "ts": 1700000000100, "pid": 7, "tid": 7, "id": 1},
]}
json.dump(merge_rank_traces([legacy(), legacy(), kineto, legacy()], 2), sys.stdout)
`;

describe('the twins write their torch.profiler trace in the shape of the page’s', () => {
  it.skipIf(!hasTorch)(
    'merge_rank_traces: X and M events, µs from each rank’s start, pid = node, one named thread per rank stream',
    () => {
      const run = spawnSync(PYTHON, ['-c', SCRIPT], {
        cwd: TWINS,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(0);
      const trace = JSON.parse(run.stdout) as {
        displayTimeUnit: string;
        traceEvents: {
          name: string;
          ph: string;
          pid: number;
          tid: number;
          ts?: number;
          dur?: number;
          args: { name?: string };
        }[];
      };
      expect(trace.displayTimeUnit).toBe('ms');
      for (const e of trace.traceEvents) {
        expect(['X', 'M']).toContain(e.ph);
        expect(Number.isInteger(e.pid) && Number.isInteger(e.tid)).toBe(true);
        if (e.ph === 'X') expect(e.ts! >= 0 && e.dur! >= 0).toBe(true);
      }
      const threads = trace.traceEvents.filter((e) => e.name === 'thread_name');
      expect(threads.map((t) => [t.pid, t.tid, t.args.name])).toEqual(
        [0, 1, 2, 3].flatMap((r) => [
          [Math.floor(r / 2), 2 * r, `rank ${r} compute`],
          [Math.floor(r / 2), 2 * r + 1, `rank ${r} comm`],
        ]),
      );
      const x = (rank: number) =>
        trace.traceEvents
          .filter((e) => e.ph === 'X' && e.tid >> 1 === rank)
          .map((e) => [e.name, e.tid % 2 ? 'comm' : 'compute', e.ts, e.dur]);
      // CPU (Gloo): the main thread is the compute stream, Gloo's threads the comm stream; times from the rank's first event.
      expect(x(1)).toEqual([
        ['forward', 'compute', 80, 50],
        ['backward', 'compute', 130, 80],
        ['gloo:all_reduce', 'comm', 160, 60],
        ['gloo:broadcast', 'comm', 0, 5],
      ]);
      // GPU (Kineto): kernels only, NCCL's on the comm stream.
      expect(x(2)).toEqual([
        ['ampere_sgemm_128x64_nn', 'compute', 0, 30],
        ['ncclDevKernel_AllReduce_Sum_f32_RING_LL', 'comm', 10, 40],
      ]);
    },
  );
});
