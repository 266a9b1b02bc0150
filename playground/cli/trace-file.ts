/**
 * `npm run ranks -- run … --cluster P --trace out.json`: the run's virtual trace as Chrome trace-event JSON
 * (the same chromeTrace the page's Download trace writes), so it opens in ui.perfetto.dev.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromeTrace } from '../cluster/chrome-trace.ts';
import type { RunRecord } from '../cluster/run-record.ts';
import type { CliArgs } from './cli-args.ts';

/** The path `--trace` names, absolute; undefined without the flag. */
export function tracePathIn(argv: readonly string[]): string | undefined {
  const i = argv.indexOf('--trace');
  const value = i >= 0 ? argv[i + 1] : undefined;
  return value === undefined || value.startsWith('--') ? undefined : resolve(process.cwd(), value);
}

/** Node's permission model lets the run write that one file, nothing else. */
export const traceWriteFlags = (argv: readonly string[]): string[] => {
  const path = tracePathIn(argv);
  return path ? [`--allow-fs-write=${path}`] : [];
};

/** Writes the trace; returns the line the CLI prints about it. */
export function writeTraceFile(record: RunRecord, args: CliArgs): string {
  if (!args.trace || !args.cluster) return '';
  const { preset, nodes, gpusPerNode } = args.cluster;
  const spans = record.virtualTrace;
  const arrival = record.arrivals(); // a large world: the record chose its spans (see RunRecord.virtualTrace)
  const trace = chromeTrace(spans, {
    worldSize: args.world,
    arrival,
    gpusPerNode,
    cluster: `${preset}, ${nodes} node${nodes === 1 ? '' : 's'} × ${gpusPerNode} GPUs`,
  });
  writeFileSync(resolve(process.cwd(), args.trace), JSON.stringify(trace));
  const kept = arrival
    ? ` (${spans.length} of ${record.virtualTraceTotal} spans: rank 0's and each step's fastest and slowest rank's)`
    : record.virtualTraceTotal > spans.length
      ? ` (the first ${spans.length} of ${record.virtualTraceTotal} spans)`
      : '';
  return `virtual trace written to ${args.trace}${kept}: open it in ui.perfetto.dev\n`;
}
