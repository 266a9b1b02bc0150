/**
 * One rank's virtual time: a compute stream and a communication stream, like a CUDA compute stream
 * beside NCCL's. Pure and local, so a rank worker can keep its own clock and share only arrival
 * times with its peers (every member computes the same end: the last arrival plus the duration).
 */
import { seededUnit } from './seeded-random.ts';

export type Lane = 'compute' | 'comm';

export interface TimelineSpan {
  rank: number;
  lane: Lane;
  label: string;
  start: number;
  end: number;
}

export interface RankFaults {
  /** Compute takes this many times longer (a slower GPU, thermal throttling); ≥ 1. */
  slowdown?: number;
  /** Every compute span is stretched by a factor in [1, 1 + amplitude), drawn from `seed`. */
  jitter?: { amplitude: number; seed: number };
}

export interface RankReport {
  rank: number;
  /** Where the rank's compute stream is now: the time its program has reached. */
  clock: number;
  computeSeconds: number;
  commSeconds: number;
  /** Time the compute stream spent waiting for communication (what overlap hides). */
  exposedCommSeconds: number;
}

/** When a collective ends for every member: at the last arrival plus its modelled duration. */
export function collectiveEnd(arrivals: readonly number[], durationSeconds: number): number {
  if (arrivals.length === 0) throw new RangeError('a collective needs at least one arrival');
  return Math.max(...arrivals) + durationSeconds;
}

export class RankClock {
  readonly rank: number;
  private readonly faults: RankFaults;
  private computeAt = 0;
  private commFree = 0;
  private computeSpans = 0;
  private busyCompute = 0;
  private busyComm = 0;
  private exposedComm = 0;

  constructor(rank: number, faults: RankFaults = {}) {
    if (faults.slowdown !== undefined && !(faults.slowdown >= 1))
      throw new RangeError(`slowdown of rank ${rank} must be ≥ 1, got ${faults.slowdown}`);
    if (faults.jitter && !(faults.jitter.amplitude >= 0))
      throw new RangeError('jitter amplitude must be ≥ 0');
    this.rank = rank;
    this.faults = faults;
  }

  /** The compute stream's position: what the rank's program has reached. */
  get now(): number {
    return this.computeAt;
  }

  /** Charge `seconds` of kernel time (before faults) to the compute stream. */
  charge(seconds: number, label = 'compute'): TimelineSpan {
    if (!(seconds >= 0)) throw new RangeError(`compute time must be ≥ 0, got ${seconds}`);
    const j = this.faults.jitter;
    const jitter = j ? 1 + j.amplitude * seededUnit(j.seed, this.rank, this.computeSpans) : 1;
    this.computeSpans++;
    const start = this.computeAt;
    this.computeAt += seconds * (this.faults.slowdown ?? 1) * jitter;
    this.busyCompute += this.computeAt - start;
    return { rank: this.rank, lane: 'compute', label, start, end: this.computeAt };
  }

  /**
   * The collective reaches the head of this rank's communication stream (streams run in issue
   * order): it starts when the work before it was issued (`ready`) and the stream is free.
   */
  arrive(ready: number): number {
    return Math.max(ready, this.commFree);
  }

  /** Every member has arrived: the stream is busy until the shared end. */
  finish(arrival: number, end: number, label: string, durationSeconds: number): TimelineSpan {
    this.commFree = end;
    this.busyComm += durationSeconds;
    // The stream is occupied from arrival: waiting for late peers is part of the collective.
    return { rank: this.rank, lane: 'comm', label, start: arrival, end };
  }

  /** The compute stream waits for work ending at `end` (wait(), or a synchronous collective). */
  wait(end: number): number {
    if (end > this.computeAt) {
      this.exposedComm += end - this.computeAt;
      this.computeAt = end;
    }
    return this.computeAt;
  }

  report(): RankReport {
    return {
      rank: this.rank,
      clock: this.computeAt,
      computeSeconds: this.busyCompute,
      commSeconds: this.busyComm,
      exposedCommSeconds: this.exposedComm,
    };
  }
}
