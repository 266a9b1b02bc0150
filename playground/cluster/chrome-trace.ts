/**
 * A simulated run's virtual trace as Chrome trace-event JSON, the format PyTorch's profiler writes
 * (`torch.profiler.profile(...).export_chrome_trace`) and ui.perfetto.dev or chrome://tracing open.
 * Format: https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU — complete
 * events (`ph: 'X'`, `ts`/`dur` in microseconds) and metadata events (`ph: 'M'`, `thread_name`,
 * `process_name`). One thread per rank stream: `tid = rank × 2 + (comm ? 1 : 0)`, `pid` = the node.
 * Pure, so the page's "Download trace" and the CLI's `--trace` write the same file.
 *
 * A world above FOLD_ABOVE_RANKS would be thousands of rows (1,024 ranks: 2,048 threads) that no one can
 * read: the file keeps rank 0 and the ranks at the fastest, p50, p90, p99 and slowest arrival of the whole
 * run (arrival-percentiles.ts), each thread named with its role, and says so in `otherData.ranks`.
 */
import { VIRTUAL_LANES, type VirtualTraceEvent } from '../contract/protocol.ts';
import { arrivals, representativeRanks, type Arrivals } from './arrival-percentiles.ts';
import { FOLD_ABOVE_RANKS } from './fold-lines.ts';
import { virtualSpanInfo } from './virtual-span-info.ts';

export interface ChromeTraceEvent {
  name: string;
  ph: 'X' | 'M';
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  args?: Record<string, string | number>;
}

export interface ChromeTrace {
  traceEvents: ChromeTraceEvent[];
  displayTimeUnit: 'ms';
  /** Perfetto shows unknown top-level keys as trace metadata: say which clock the times are on. */
  otherData: Record<string, string>;
}

export interface ChromeTraceOptions {
  /** GPUs per node: rank r is on node ⌊r / gpusPerNode⌋ (its `pid`); without it every rank is on pid 0. */
  gpusPerNode?: number;
  /** Names both streams of every rank below it, even one that ran no span (one row per rank stream). */
  worldSize?: number;
  /** e.g. 'h100-ndr, 2 nodes × 8 GPUs': written into otherData. */
  cluster?: string;
  /**
   * A large world's arrival over every rank, when `spans` are already a chosen subset (a RunRecord keeps
   * rank 0's and each step's fastest and slowest rank's): every given span is written, threads are named
   * with their whole-run role. Without it a large world is cut here to rank 0 and the percentile ranks.
   */
  arrival?: Arrivals | null;
}

export const traceThreadId = (rank: number, lane: VirtualTraceEvent['lane']): number =>
  rank * 2 + (lane === 'comm' ? 1 : 0);

const micros = (seconds: number) => Math.round(seconds * 1e9) / 1e3; // nanosecond resolution, in µs

export function chromeTrace(
  spans: readonly VirtualTraceEvent[],
  options: ChromeTraceOptions = {},
): ChromeTrace {
  const per = options.gpusPerNode && options.gpusPerNode > 0 ? options.gpusPerNode : 0;
  let world = options.worldSize ?? 0;
  for (const s of spans) world = Math.max(world, s.rank + 1);
  const chosen = world > FOLD_ABOVE_RANKS && options.arrival ? options.arrival : null;
  const arrival = world > FOLD_ABOVE_RANKS ? (chosen ?? arrivals(spans)) : null;
  // Above FOLD_ABOVE_RANKS: each representative rank with the roles it stands for.
  const roles = arrival ? representativeRanks(arrival) : null;
  // The ranks written: every rank up to FOLD_ABOVE_RANKS; above, the spans' own ranks if chosen, else the representatives.
  const kept = chosen
    ? new Set([0, ...spans.map((s) => s.rank)])
    : roles
      ? new Set(roles.keys())
      : null;
  const threadName = (rank: number, lane: VirtualTraceEvent['lane']) => {
    const mine = roles?.get(rank);
    return `rank ${rank} ${lane}${mine?.length ? ` (${mine.join(', ')})` : ''}`;
  };
  const pidOf = (rank: number) => (per ? Math.floor(rank / per) : 0);
  const events: ChromeTraceEvent[] = [];
  const threads = new Set<number>();
  const processes = new Set<number>();
  const name = (rank: number, lane: VirtualTraceEvent['lane']) => {
    const pid = pidOf(rank);
    const tid = traceThreadId(rank, lane);
    if (threads.has(tid)) return;
    threads.add(tid);
    if (!processes.has(pid)) {
      processes.add(pid);
      events.push({
        name: 'process_name',
        ph: 'M',
        pid,
        tid: 0,
        args: { name: per ? `node ${pid}` : 'simulated cluster' },
      });
    }
    events.push(
      { name: 'thread_name', ph: 'M', pid, tid, args: { name: threadName(rank, lane) } },
      // Perfetto orders threads by this, so each rank's compute row sits above its comm row.
      { name: 'thread_sort_index', ph: 'M', pid, tid, args: { sort_index: tid } },
    );
  };
  const ranks = kept ? [...kept].sort((a, b) => a - b) : [...Array(options.worldSize ?? 0).keys()];
  for (const r of ranks) for (const lane of VIRTUAL_LANES) name(r, lane);
  for (const s of spans) {
    if (kept && !kept.has(s.rank)) continue;
    const pid = pidOf(s.rank);
    const tid = traceThreadId(s.rank, s.lane);
    name(s.rank, s.lane);
    const info = virtualSpanInfo(s);
    const args: Record<string, string | number> = { step: s.step };
    if (s.bytes !== undefined) args.bytes = s.bytes;
    if (info.collective) args.collective = info.collective;
    for (const key of ['algorithm', 'protocol', 'busGBps', 'index', 'configuration'] as const) {
      const v = s[key];
      if (v !== undefined) args[key] = v;
    }
    events.push({
      name: info.label,
      cat: info.kind,
      ph: 'X',
      pid,
      tid,
      ts: micros(s.start),
      dur: micros(Math.max(0, s.end - s.start)),
      args,
    });
  }
  return {
    traceEvents: events,
    displayTimeUnit: 'ms',
    otherData: {
      clock: 'virtual time of the simulated cluster (the model, not this machine)',
      ...(options.cluster ? { cluster: options.cluster } : {}),
      ...(arrival
        ? {
            ranks:
              `${ranks.length} of ${world.toLocaleString('en')} ranks, so the file stays readable: rank 0 and ` +
              (chosen
                ? 'in each step that step’s fastest and slowest rank (the ranks whose last span of the step ended first and last)'
                : 'the ranks at the fastest, 50th, 90th and 99th percentile and slowest arrival') +
              `. Arrival over all ${arrival.ranks.toLocaleString('en')} ranks, by each rank’s last span end: ` +
              `${arrival.picks.map((p) => `${p.role} rank ${p.rank} at ${micros(p.time)} µs`).join(', ')}; ` +
              `arrival skew ${micros(arrival.skew)} µs. A step waits for its slowest rank.`,
          }
        : {}),
    },
  };
}
