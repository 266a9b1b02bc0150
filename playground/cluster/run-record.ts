import {
  MAX_LOG_LINES,
  MAX_PLOT_POINTS,
  MAX_TRACE_EVENTS,
  MAX_VIRTUAL_TRACE_EVENTS,
  type Backend,
  type ClusterEvent,
  type LogLevel,
  type PlotPoint,
  type RunResult,
  type SimulatedClusterOptions,
  type TraceEvent,
  type VirtualStepRank,
  type VirtualStepReport,
  type VirtualTraceEvent,
} from '../contract/protocol.ts';
import { cutLine, MAX_RANK_LOG_CHARS } from '../contract/output-limits.ts';
import { arrivals, type Arrivals } from './arrival-percentiles.ts';
import { FOLD_ABOVE_RANKS } from './fold-lines.ts';

/** One step's fastest and slowest rank so far, with their spans of that step (a large world's record). */
interface StepExtremes {
  fastest?: { rank: number; spans: VirtualTraceEvent[] };
  slowest?: { rank: number; spans: VirtualTraceEvent[] };
}

/** One line in a rank's output: something it printed, or an error it (or the cluster, for it) reported. */
export interface RecordedLine {
  time: number;
  kind: LogLevel | 'failure';
  text: string;
  /** Where in the reader's program an error was thrown, 1-based. */
  line?: number;
  column?: number;
}

/** A log or error event as a line of output; null for every other event. */
function recordedLine(e: ClusterEvent): RecordedLine | null {
  if (e.type === 'log') return { time: e.time, kind: e.level, text: e.text };
  if (e.type !== 'error') return null;
  return {
    time: e.time,
    kind: 'failure',
    text: e.message,
    ...(e.line === undefined ? {} : { line: e.line }),
    ...(e.column === undefined ? {} : { column: e.column }),
  };
}

/** Everything one rank reported, from its own channel; its lines are its own log and error events, in arrival order. */
export class RankRecord {
  backend?: Backend;
  /** Why earlier backends were skipped, if any were. */
  backendReason?: string;
  /** Lines kept so far (output and errors), for the MAX_LOG_LINES cap. */
  keptLines = 0;
  /** Characters of the lines kept so far, for the MAX_RANK_LOG_CHARS cap. */
  keptChars = 0;
  /** Output lines that arrived after MAX_LOG_LINES lines or MAX_RANK_LOG_CHARS characters were kept (counted, not kept). */
  droppedLines = 0;
  /** Its exit, once it reported one (or the cluster ended it). */
  exit: { ok: boolean; time: number } | null = null;

  readonly rank: number;
  /** Its own kept log and error events: reading a rank's lines never walks the other 1,023 ranks' events. */
  readonly #own: ClusterEvent[] = [];

  constructor(rank: number) {
    this.rank = rank;
  }

  /** Keeps one of its log or error events (RunRecord.add, after the caps). */
  keep(e: ClusterEvent): void {
    this.#own.push(e);
  }

  /** Its output and errors, in the order they arrived. */
  get lines(): RecordedLine[] {
    const lines: RecordedLine[] = [];
    for (const e of this.#own) {
      const line = recordedLine(e);
      if (line) lines.push(line);
    }
    return lines;
  }
}

/**
 * A run, recorded once as its events arrive: per-rank lines, errors and exit, the collective trace and the
 * result. The page renders it, the code-exercise grader grades it, the CLI prints it, tests read it.
 */
export class RunRecord {
  readonly worldSize: number;
  readonly ranks: readonly RankRecord[];
  /** Every kept event in arrival order (log lines and trace steps beyond the caps are only counted). */
  readonly events: ClusterEvent[] = [];
  /** The first MAX_TRACE_EVENTS trace steps; traceTotal counts them all. */
  readonly trace: TraceEvent[] = [];
  traceTotal = 0;
  /** The first MAX_PLOT_POINTS points the ranks drew, in arrival order; plotTotal counts them all. */
  readonly plots: PlotPoint[] = [];
  plotTotal = 0;
  /** The simulated cluster, or null for a real-time run (whose times are this machine's). */
  readonly cluster: SimulatedClusterOptions | null;
  /**
   * Virtual spans kept (seconds), for the compute and comm lanes: up to FOLD_ABOVE_RANKS ranks, the first
   * MAX_VIRTUAL_TRACE_EVENTS; above, rank 0's and, for each step, its fastest and slowest rank's (by when
   * each ended its last span of the step), so 1,024 ranks keep what a view of the slowest rank needs
   * and arrivals() still sees every rank.
   */
  get virtualTrace(): VirtualTraceEvent[] {
    if (!this.#steps) return this.#virtualTrace;
    const out = this.#virtualTrace.slice();
    for (const e of this.#steps.values())
      for (const k of [e.fastest, e.slowest])
        if (k && !(k === e.slowest && e.fastest?.rank === k.rank))
          for (const t of k.spans) out.push(t);
    return out;
  }
  virtualTraceTotal = 0;
  readonly #virtualTrace: VirtualTraceEvent[] = [];
  /** A large world's per-step extremes (null up to FOLD_ABOVE_RANKS ranks). */
  readonly #steps: Map<number, StepExtremes> | null;
  /** A large world's arrival table: step → each rank's last span end in it (NaN before it reports). */
  readonly #arrival = new Map<number, Float64Array>();
  /** Spans the per-step extremes hold (bounded with rank 0's by MAX_VIRTUAL_TRACE_EVENTS). */
  #extremeSpans = 0;
  /** Each rank's step reports, by rank, in step order. */
  readonly virtualStepsByRank: VirtualStepRank[][];
  result: RunResult | null = null;

  constructor(worldSize: number, cluster: SimulatedClusterOptions | null = null) {
    this.worldSize = worldSize;
    this.cluster = cluster;
    this.virtualStepsByRank = Array.from({ length: worldSize }, () => []);
    this.#steps = worldSize > FOLD_ABOVE_RANKS ? new Map() : null;
    this.ranks = Array.from({ length: worldSize }, (_, rank) => new RankRecord(rank));
  }

  add(e: ClusterEvent): void {
    const r = this.ranks[e.rank];
    if (!r) return;
    // Ranks cut their lines (log-pacer.ts); errors and the cluster's own messages are cut here.
    if (e.type === 'log' || e.type === 'error') {
      const text = e.type === 'log' ? e.text : e.message;
      const cut = cutLine(text);
      if (
        e.type === 'log' &&
        (r.keptLines >= MAX_LOG_LINES || r.keptChars + cut.length > MAX_RANK_LOG_CHARS)
      ) {
        r.droppedLines++;
        return;
      }
      if (cut !== text) e = e.type === 'log' ? { ...e, text: cut } : { ...e, message: cut };
      r.keptChars += cut.length;
    }
    if (e.type === 'trace') return this.addTrace(e.rank, e.events);
    if (e.type === 'plot') return this.addPlot(e.rank, e.points);
    if (e.type === 'virtual-trace') return this.addVirtualTrace(e.rank, e.events);
    if (e.type === 'virtual-step') this.virtualStepsByRank[e.rank]!.push(e.report);
    this.events.push(e);
    switch (e.type) {
      case 'backend':
        r.backend = e.backend;
        if (e.reason) r.backendReason = e.reason;
        break;
      case 'log':
      case 'error':
        r.keptLines++;
        r.keep(e);
        break;
      case 'exit':
        r.exit ??= { ok: e.ok, time: e.time };
        break;
    }
  }

  private addTrace(rank: number, events: TraceEvent[]): void {
    this.traceTotal += events.length;
    const kept = events.slice(0, Math.max(0, MAX_TRACE_EVENTS - this.trace.length));
    for (const t of kept) this.trace.push(t);
    if (kept.length) this.events.push({ type: 'trace', rank, events: kept });
  }

  private addPlot(rank: number, points: PlotPoint[]): void {
    this.plotTotal += points.length;
    const kept = points.slice(0, Math.max(0, MAX_PLOT_POINTS - this.plots.length));
    for (const p of kept) this.plots.push(p);
    if (kept.length) this.events.push({ type: 'plot', rank, points: kept });
  }

  private addVirtualTrace(rank: number, events: VirtualTraceEvent[]): void {
    this.virtualTraceTotal += events.length;
    if (this.#steps && rank !== 0) return this.addLargeWorldSpans(rank, events);
    const room = Math.max(
      0,
      MAX_VIRTUAL_TRACE_EVENTS - this.#virtualTrace.length - this.#extremeSpans,
    );
    const kept = events.slice(0, room);
    for (const t of kept) this.#virtualTrace.push(t);
    if (this.#steps) this.addLargeWorldSpans(rank, events); // rank 0 may be a step's fastest or slowest too
    if (kept.length) this.events.push({ type: 'virtual-trace', rank, events: kept });
  }

  /** Records when `rank` ended each step's last span; returns the steps it touched with that end. */
  private noteArrivals(rank: number, events: VirtualTraceEvent[]): Map<number, number> {
    const touched = new Map<number, number>();
    for (const t of events) {
      const step = t.step ?? 0;
      let row = this.#arrival.get(step);
      if (!row) this.#arrival.set(step, (row = new Float64Array(this.worldSize).fill(NaN)));
      if (!(row[rank]! >= t.end)) row[rank] = t.end;
      touched.set(step, row[rank]!);
    }
    return touched;
  }

  /** A large world's rank: its spans (other than rank 0's) are kept only while it is its step's fastest or slowest. */
  private addLargeWorldSpans(rank: number, events: VirtualTraceEvent[]): void {
    const steps = this.#steps!;
    for (const [step, end] of this.noteArrivals(rank, events)) {
      // Rank 0's spans are kept whole already: as an extreme it holds none of its own.
      const mine = rank === 0 ? [] : events.filter((t) => (t.step ?? 0) === step);
      const row = this.#arrival.get(step)!;
      let e = steps.get(step);
      if (!e) steps.set(step, (e = {}));
      for (const role of ['fastest', 'slowest'] as const) {
        const held = e[role];
        if (held?.rank === rank) {
          this.keepExtreme(held.spans, mine);
          continue;
        }
        const heldEnd = held ? row[held.rank]! : NaN;
        // Ties (ranks leaving one collective together) go as arrivals() breaks them: by rank.
        const better =
          role === 'fastest'
            ? end < heldEnd || (end === heldEnd && rank < held!.rank)
            : end > heldEnd || (end === heldEnd && rank > held!.rank);
        if (held && !better) continue;
        if (held) this.#extremeSpans -= held.spans.length;
        e[role] = { rank, spans: [] };
        this.keepExtreme(e[role].spans, mine);
      }
    }
  }

  private keepExtreme(into: VirtualTraceEvent[], spans: VirtualTraceEvent[]): void {
    const room = Math.max(
      0,
      MAX_VIRTUAL_TRACE_EVENTS - this.#virtualTrace.length - this.#extremeSpans,
    );
    const kept = spans.slice(0, room);
    for (const t of kept) into.push(t);
    this.#extremeSpans += kept.length;
  }

  /**
   * A large world's arrival skew over every rank (not only the ranks whose spans are kept): at one step,
   * or over the whole run (each rank's last span end); null up to FOLD_ABOVE_RANKS ranks or before any span.
   */
  arrivals(step?: number): Arrivals | null {
    if (!this.#steps) return null;
    const ends = new Map<number, number>();
    for (const [s, row] of this.#arrival) {
      if (step !== undefined && s !== step) continue;
      row.forEach((end, rank) => {
        if (end === end && !(ends.get(rank)! >= end)) ends.set(rank, end);
      });
    }
    return arrivals([...ends].map(([rank, end]) => ({ rank, end })));
  }

  /**
   * The step report: every step all ranks reported (a dead rank's missing steps end the list), with
   * step time and parts as the slowest rank saw them, and MFU over the whole world.
   */
  get virtualSteps(): VirtualStepReport[] {
    const counts = this.virtualStepsByRank.map((r) => r.length);
    const steps = Math.min(...counts);
    return Array.from({ length: steps }, (_, k) => {
      const ranks = this.virtualStepsByRank.map((r) => r[k]!);
      const max = (f: (r: VirtualStepRank) => number) => Math.max(...ranks.map(f));
      const seconds = max((r) => r.end - r.start);
      const flops = ranks.reduce((a, r) => a + r.modelFlops, 0);
      const peak = ranks.reduce((a, r) => a + r.peakFlops, 0);
      return {
        step: k,
        seconds,
        computeSeconds: max((r) => r.computeSeconds),
        commSeconds: max((r) => r.commSeconds),
        exposedCommSeconds: max((r) => r.exposedCommSeconds),
        mfu: flops > 0 && seconds > 0 ? flops / (peak * seconds) : null,
        ranks,
      };
    });
  }

  finish(result: RunResult): void {
    this.result = result;
  }

  /** What each rank printed (console output only, not errors), by rank: what exercise checks are graded on. */
  get logs(): string[][] {
    const logs = this.ranks.map((): string[] => []);
    for (const e of this.events) if (e.type === 'log') logs[e.rank]!.push(e.text);
    return logs;
  }

  /** Errors reported for each rank, by rank. */
  errors(rank: number): RecordedLine[] {
    return this.events.flatMap((e) =>
      e.type === 'error' && e.rank === rank ? [recordedLine(e)!] : [],
    );
  }

  /** Every line of every rank, ordered by time (then rank): the combined view. */
  combined(): (RecordedLine & { rank: number })[] {
    return this.events
      .flatMap((e) => {
        const line = recordedLine(e);
        return line ? [{ ...line, rank: e.rank }] : [];
      })
      .sort((a, b) => a.time - b.time || a.rank - b.rank);
  }
}
