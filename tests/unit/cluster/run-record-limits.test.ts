import { describe, expect, it } from 'vitest';
import { RunRecord } from '../../../playground/cluster/run-record.ts';
import {
  BATCH_CHARS,
  cutLine,
  MAX_LINE_CHARS,
  MAX_PANE_LINE_CHARS,
  MAX_RANK_LOG_CHARS,
  paneLine,
} from '../../../playground/contract/output-limits.ts';
import {
  createLogCounters,
  LogPacer,
  logMessageTaken,
} from '../../../playground/rank/log-pacer.ts';
import {
  MAX_LOG_LINES,
  MAX_TRACE_EVENTS,
  type ClusterEvent,
  type TraceEvent,
} from '../../../playground/contract/protocol.ts';

describe('RunRecord limits (a flood or a long trace does not grow the record without end)', () => {
  it('keeps MAX_LOG_LINES lines per rank, counts the rest, and still keeps errors and the exit', () => {
    const record = new RunRecord(2);
    for (let i = 0; i < MAX_LOG_LINES + 5; i++)
      record.add({ type: 'log', rank: 0, level: 'log', text: `line ${i}`, time: i });
    record.add({ type: 'error', rank: 0, message: 'boom', time: 1e6 });
    record.add({ type: 'exit', rank: 0, ok: false, time: 1e6 });
    record.add({ type: 'log', rank: 1, level: 'log', text: 'hello', time: 0 });
    expect(record.ranks[0]!.droppedLines).toBe(5);
    expect(record.logs[0]).toHaveLength(MAX_LOG_LINES);
    expect(record.logs[0]!.at(-1)).toBe(`line ${MAX_LOG_LINES - 1}`);
    expect(record.errors(0).map((l) => l.text)).toEqual(['boom']);
    expect(record.ranks[0]!.exit).toEqual({ ok: false, time: 1e6 });
    expect(record.logs[1]).toEqual(['hello']);
    expect(record.events.filter((e) => e.type === 'log')).toHaveLength(MAX_LOG_LINES + 1);
  });

  it('keeps each line once, as its event: per-rank lines, errors and the combined view read the events', () => {
    const record = new RunRecord(2);
    record.add({ type: 'log', rank: 1, level: 'warn', text: 'late', time: 5 });
    record.add({ type: 'log', rank: 0, level: 'log', text: 'early', time: 1 });
    record.add({ type: 'error', rank: 0, message: 'boom', line: 3, column: 7, time: 5 });
    expect(record.events).toHaveLength(3);
    expect(record.ranks[0]!.lines).toEqual([
      { time: 1, kind: 'log', text: 'early' },
      { time: 5, kind: 'failure', text: 'boom', line: 3, column: 7 },
    ]);
    expect(record.errors(0)).toEqual([record.ranks[0]!.lines[1]]);
    expect(record.combined().map((l) => `${l.rank}:${l.text}`)).toEqual([
      '0:early',
      '0:boom',
      '1:late',
    ]);
    expect(record.logs).toEqual([['early'], ['late']]);
  });

  it('keeps the first MAX_TRACE_EVENTS trace steps and counts them all', () => {
    const record = new RunRecord(1);
    const step = (i: number): TraceEvent => ({
      rank: 0,
      kind: 'allReduce',
      bytes: 4,
      start: i,
      end: i + 1,
    });
    for (let b = 0; b < 3; b++)
      record.add({
        type: 'trace',
        rank: 0,
        events: Array.from({ length: MAX_TRACE_EVENTS / 2 + 1 }, (_, i) => step(b * 1e5 + i)),
      });
    expect(record.traceTotal).toBe(3 * (MAX_TRACE_EVENTS / 2 + 1));
    expect(record.trace).toHaveLength(MAX_TRACE_EVENTS);
    expect(record.trace[0]!.start).toBe(0);
    const kept = record.events.flatMap((e) => (e.type === 'trace' ? e.events : []));
    expect(kept).toHaveLength(MAX_TRACE_EVENTS);
  });
});

describe('output bounded by size (issue 34, item 3)', () => {
  it('a rank cuts each line at MAX_LINE_CHARS before it leaves, saying how much it cut', () => {
    const posted: ClusterEvent[][] = [];
    const pacer = new LogPacer(createLogCounters(1), 0, (lines) => posted.push(lines));
    pacer.push({
      type: 'log',
      rank: 0,
      level: 'log',
      text: 'x'.repeat(MAX_LINE_CHARS + 2 ** 20),
      time: 0,
    });
    const text = (posted[0]![0] as { text: string }).text;
    expect(text.startsWith('x'.repeat(MAX_LINE_CHARS) + ' … 1,048,576 more characters')).toBe(true);
    expect(text.length).toBeLessThan(MAX_LINE_CHARS + 100);
    expect(cutLine('short')).toBe('short');
    // A pane shows less of it, and says how much the whole line had.
    expect(paneLine(text)).toBe(
      `${'x'.repeat(MAX_PANE_LINE_CHARS)} … ${(MAX_LINE_CHARS + 2 ** 20 - MAX_PANE_LINE_CHARS).toLocaleString('en-US')} more characters (Download log has the first 10,000)`,
    );
    expect(paneLine('short')).toBe('short');
  });

  it('the pacer sends a batch once it holds BATCH_CHARS characters, not only BATCH_LINES lines', () => {
    const counters = createLogCounters(1);
    const posted: ClusterEvent[][] = [];
    const pacer = new LogPacer(counters, 0, (lines) => {
      posted.push(lines);
      if (posted.length > 2) logMessageTaken(counters, 0); // the page stays two messages behind
    });
    for (let i = 0; i < 40; i++)
      pacer.push({ type: 'log', rank: 0, level: 'log', text: 'y'.repeat(MAX_LINE_CHARS), time: i });
    pacer.flush();
    const sizes = posted.map((b) => b.reduce((n, e) => n + (e as { text: string }).text.length, 0));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BATCH_CHARS + MAX_LINE_CHARS);
    expect(Math.max(...posted.map((b) => b.length))).toBeGreaterThan(1); // batched, by size
    expect(posted.flat()).toHaveLength(40);
  });

  it('the record keeps MAX_RANK_LOG_CHARS characters per rank, cuts errors too, and counts what it dropped', () => {
    const record = new RunRecord(2);
    const line = 'z'.repeat(MAX_LINE_CHARS);
    const fit = Math.floor(MAX_RANK_LOG_CHARS / MAX_LINE_CHARS);
    for (let i = 0; i < fit + 7; i++)
      record.add({ type: 'log', rank: 0, level: 'log', text: line, time: i });
    record.add({ type: 'error', rank: 0, message: 'e'.repeat(3 * MAX_LINE_CHARS), time: 1e6 });
    record.add({ type: 'log', rank: 1, level: 'log', text: 'other rank', time: 0 });
    expect(record.logs[0]).toHaveLength(fit);
    expect(record.ranks[0]!.droppedLines).toBe(7);
    expect(record.errors(0)[0]!.text).toContain('20,000 more characters');
    expect(record.logs[1]).toEqual(['other rank']);
    const kept = record.combined().reduce((n, l) => n + l.text.length, 0);
    expect(kept).toBeLessThan(MAX_RANK_LOG_CHARS + 2 * MAX_LINE_CHARS);
  });
});
