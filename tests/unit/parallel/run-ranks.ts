import type { ClusterEvent, TraceEvent } from '../../../playground/cluster/protocol.ts';
import { runProgram } from '../../../playground/cluster/node.ts';
import { MAX_LINE_CHARS } from '../../../playground/contract/output-limits.ts';

/** Marker a rank program prints before each JSON record it reports to the test. */
export const RECORD = '@@record ';
/** Marker of a piece of a record with more to come (a line keeps at most MAX_LINE_CHARS characters). */
const RECORD_PIECE = '@@record+ ';

/**
 * Runs `code` on `worldSize` real worker_threads ranks (CPU backend); returns the JSON records each rank
 * printed with `console.log(RECORD + JSON.stringify(…))`, and the trace events each rank sent, indexed by rank.
 */
export async function runRanksTraced<T = unknown>(
  code: string,
  worldSize: number,
  timeoutMs = 120_000,
): Promise<{ records: T[][]; traces: TraceEvent[][] }> {
  const { result, events } = await runProgram({ code, worldSize, backend: 'cpu', timeoutMs });
  const logs = (events as ClusterEvent[]).filter(
    (e): e is Extract<ClusterEvent, { type: 'log' | 'error' }> =>
      e.type === 'log' || e.type === 'error',
  );
  if (!result.ok) {
    const tail = logs
      .map((e) => `[rank ${e.rank}] ${'text' in e ? e.text : e.message}`)
      .slice(-20)
      .join('\n');
    throw new Error(
      `rank program failed (${result.reason}${result.error ? `: ${result.error.message}` : ''})\n${tail}`,
    );
  }
  const records: T[][] = Array.from({ length: worldSize }, () => []);
  // A record longer than a line may be arrives in pieces, each but the last marked RECORD_PIECE.
  const partial: string[] = Array.from({ length: worldSize }, () => '');
  for (const e of logs) {
    if (e.type !== 'log') continue;
    if (e.text.startsWith(RECORD_PIECE)) partial[e.rank] += e.text.slice(RECORD_PIECE.length);
    else if (e.text.startsWith(RECORD)) {
      records[e.rank]!.push(JSON.parse(partial[e.rank] + e.text.slice(RECORD.length)) as T);
      partial[e.rank] = '';
    }
  }
  const traces: TraceEvent[][] = Array.from({ length: worldSize }, () => []);
  for (const e of events as ClusterEvent[])
    if (e.type === 'trace') traces[e.rank]!.push(...e.events);
  return { records, traces };
}

/** {@link runRanksTraced} without the traces. */
export async function runRanks<T = unknown>(
  code: string,
  worldSize: number,
  timeoutMs = 120_000,
): Promise<T[][]> {
  return (await runRanksTraced<T>(code, worldSize, timeoutMs)).records;
}

/** Program prelude: imports and a `report` helper every rank program in these tests uses. */
export const PRELUDE = `
import * as tf from '@tensorflow/tfjs';
import * as ranks from 'ranks';
const { dist } = ranks;
const report = (record) => {
  // Lines are cut at MAX_LINE_CHARS (contract/output-limits.ts), so a long record is sent in pieces.
  const json = JSON.stringify(record);
  const piece = ${MAX_LINE_CHARS - RECORD_PIECE.length};
  for (let i = 0; i + piece < json.length; i += piece)
    console.log(${JSON.stringify(RECORD_PIECE)} + json.slice(i, i + piece));
  console.log(${JSON.stringify(RECORD)} + json.slice(Math.floor(Math.max(0, json.length - 1) / piece) * piece));
};
const plain = (snap) => Object.fromEntries(Object.entries(snap).map(([k, v]) => [k, Array.from(v)]));
`;
