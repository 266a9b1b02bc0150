/**
 * One rank's compute stream in program order, for a rank worker that does not know when its
 * collectives end until its peers arrive. Charges and waits are applied in the order the program made
 * them; behind a wait whose end is not known yet they queue, so no virtual time depends on when the
 * machine happened to finish something.
 */
import { seededUnit } from './seeded-random.ts';

/** What makes one rank's compute slower than the roofline says. */
export interface RankFaults {
  /** Compute takes this many times longer (a slower GPU, thermal throttling); ≥ 1. */
  slowdown?: number;
  /** Every compute span is stretched by a factor in [1, 1 + amplitude), drawn from `seed`. */
  jitter?: { amplitude: number; seed: number };
}

/** Communication the compute stream may wait on; the runtime sets `end` once every member arrived. */
export interface PendingEnd {
  end?: number;
}

/** A merged stretch of compute with one label. */
export interface ComputeSpan {
  label: string;
  start: number;
  end: number;
  /** What the span is ('forward', 'backward (layer 3)' is kind 'backward', index 3). */
  kind?: SpanMeta['kind'];
  index?: number;
}

/** The timeline's classification of a charge: its kind and layer index. */
export interface SpanMeta {
  kind?: 'forward' | 'backward' | 'optimizer' | 'compute';
  index?: number;
}

type Op =
  | { kind: 'charge'; seconds: number; label: string; meta: SpanMeta }
  | { kind: 'wait'; work: PendingEnd }
  | { kind: 'mark'; resolve: (time: number) => void };

export class ProgramClock {
  readonly rank: number;
  readonly #faults: RankFaults;
  readonly #onSpan: (span: ComputeSpan) => void;
  /** Ops behind a wait whose end is unknown; empty on the fast path. */
  readonly #queue: Op[] = [];
  #time = 0;
  #charges = 0;
  #open: ComputeSpan | null = null;
  /** Compute charged (after faults); waits split into communication that was running and waiting for peers. */
  computeSeconds = 0;
  exposedCommSeconds = 0;
  peerWaitSeconds = 0;
  /** How much of [from, to] this rank's communication stream was busy (0 when not told). */
  readonly #commBusy: (from: number, to: number) => number;

  constructor(
    rank: number,
    faults: RankFaults,
    onSpan: (span: ComputeSpan) => void,
    commBusy: (from: number, to: number) => number = () => 0,
  ) {
    if (faults.slowdown !== undefined && !(faults.slowdown >= 1))
      throw new RangeError(`slowdown of rank ${rank} must be ≥ 1, got ${faults.slowdown}`);
    if (faults.jitter && !(faults.jitter.amplitude >= 0))
      throw new RangeError('jitter amplitude must be ≥ 0');
    this.rank = rank;
    this.#faults = faults;
    this.#onSpan = onSpan;
    this.#commBusy = commBusy;
  }

  /** The clock, when nothing it waits on is still unknown; else undefined. */
  get now(): number | undefined {
    return this.#queue.length === 0 ? this.#time : undefined;
  }

  /** Charge `seconds` of kernel time (before slowdown and jitter); faults are drawn in charge order. */
  charge(seconds: number, label = 'compute', meta: SpanMeta = {}): void {
    if (!(seconds >= 0)) throw new RangeError(`compute time must be ≥ 0, got ${seconds}`);
    const j = this.#faults.jitter;
    const jitter = j ? 1 + j.amplitude * seededUnit(j.seed, this.rank, this.#charges) : 1;
    this.#charges++;
    const stretched = seconds * (this.#faults.slowdown ?? 1) * jitter;
    if (this.#queue.length === 0) return this.#applyCharge(stretched, label, meta);
    const last = this.#queue.at(-1)!;
    if (last.kind === 'charge' && last.label === label) last.seconds += stretched;
    else this.#queue.push({ kind: 'charge', seconds: stretched, label, meta });
  }

  /** The compute stream waits here for `work` (a wait(), or awaiting a synchronous collective). */
  wait(work: PendingEnd): void {
    if (this.#queue.length === 0 && work.end !== undefined) return this.#applyWait(work.end);
    this.#queue.push({ kind: 'wait', work });
  }

  /** The clock at this point of the program: at once when known, else once the waits before it end. */
  mark(): number | Promise<number> {
    if (this.#queue.length === 0) return this.#time;
    return new Promise((resolve) => this.#queue.push({ kind: 'mark', resolve }));
  }

  /** Applies queued ops up to the first wait whose end is still unknown (call when an end becomes known). */
  advance(): void {
    while (this.#queue.length > 0) {
      const op = this.#queue[0]!;
      if (op.kind === 'wait' && op.work.end === undefined) return;
      this.#queue.shift();
      if (op.kind === 'charge') this.#applyCharge(op.seconds, op.label, op.meta);
      else if (op.kind === 'wait') this.#applyWait(op.work.end!);
      else op.resolve(this.#time);
    }
  }

  /** Emits the compute span still open (at a step's end, and when the run ends). */
  flush(): void {
    if (this.#open) this.#onSpan(this.#open);
    this.#open = null;
  }

  #applyCharge(seconds: number, label: string, meta: SpanMeta = {}): void {
    const start = this.#time;
    this.#time += seconds;
    this.computeSeconds += seconds;
    if (seconds === 0) return;
    if (this.#open && this.#open.label === label && this.#open.end === start) {
      this.#open.end = this.#time;
      return;
    }
    this.flush();
    this.#open = { label, start, end: this.#time, ...meta };
  }

  #applyWait(end: number): void {
    if (end <= this.#time) return;
    this.flush();
    // Exposed communication is the part of the wait when this rank's collectives were running; the rest
    // was spent waiting for peers to arrive (a straggler), which is not communication.
    const busy = Math.min(end - this.#time, this.#commBusy(this.#time, end));
    this.exposedCommSeconds += busy;
    this.peerWaitSeconds += end - this.#time - busy;
    this.#time = end;
  }
}
