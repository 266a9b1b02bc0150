/**
 * Virtual time for a world of ranks, as a pure state machine the runtime drives: each rank has a
 * compute stream and a communication stream, like a CUDA compute stream beside NCCL's stream. A
 * collective starts on a rank when both the work before it and the rank's previous communication
 * are done, and ends for everyone at the last member's arrival plus its modelled duration.
 */
import {
  predictCollective,
  predictSendRecv,
  type Collective,
  type CollectivePrediction,
} from './collective-model.ts';
import { clusterShape, nodeOfRank, worldSize, type ClusterShape } from './cluster-shape.ts';
import { collectiveEnd, RankClock, type RankReport, type TimelineSpan } from './rank-clock.ts';

export interface FaultPlan {
  /** Compute on these ranks takes `factor` times longer (a slower GPU, thermal throttling). */
  slowdown?: Readonly<Record<number, number>>;
  /** Compute spans are stretched by a factor in [1, 1 + amplitude), drawn from `seed`; on `ranks` only if given. */
  jitter?: { amplitude: number; seed: number; ranks?: readonly number[] };
  /** The rank stops at the start of step `atStep` (0-based) and never reaches another collective. */
  deaths?: readonly { rank: number; atStep: number }[];
}

export interface VirtualClockOptions extends FaultPlan {
  /** Seconds a collective waits for missing ranks before failing; PyTorch's NCCL default is 10 minutes. */
  collectiveTimeoutSeconds?: number;
}

/** PyTorch's default for NCCL process groups: torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp kProcessGroupNCCLDefaultTimeout = 10 min. */
export const DEFAULT_COLLECTIVE_TIMEOUT_SECONDS = 600;

export interface CollectiveRequest {
  /** Identifies the call across ranks: same group and same sequence number on every member. */
  key: string;
  /** A collective, or 'send-recv' with members [from, to]. */
  kind: Collective | 'send-recv';
  bytes: number;
  /** Global ranks taking part, all of them by default. */
  members?: readonly number[];
  label?: string;
}

export interface WorkHandle {
  key: string;
  rank: number;
}

/** The model's prediction for a collective over `members`: a sub-group is timed on the nodes it spans. */
export function groupCollectivePrediction(
  shape: ClusterShape,
  kind: Collective,
  bytes: number,
  members: readonly number[],
): CollectivePrediction {
  const nodes = new Map<number, number>();
  for (const r of members)
    nodes.set(nodeOfRank(shape, r), (nodes.get(nodeOfRank(shape, r)) ?? 0) + 1);
  const sub = clusterShape(shape.preset, Math.max(1, nodes.size), Math.max(1, ...nodes.values()));
  // One member moves nothing: predictCollective gives 0 s for a world of one.
  return predictCollective(
    members.length < 2 ? clusterShape(shape.preset, 1, 1) : sub,
    kind,
    bytes,
  );
}

/** The model's time for a collective over `members`. */
export function groupCollectiveSeconds(
  shape: ClusterShape,
  kind: Collective,
  bytes: number,
  members: readonly number[],
): number {
  return groupCollectivePrediction(shape, kind, bytes, members).seconds;
}

export class CollectiveTimeoutError extends Error {
  readonly missingRanks: readonly number[];
  readonly atSeconds: number;
  constructor(key: string, missing: readonly number[], at: number, timeout: number) {
    const who =
      missing.length === 0
        ? 'every rank arrived but it did not finish in time'
        : `rank${missing.length === 1 ? '' : 's'} ${missing.join(', ')} never arrived`;
    super(`collective ${key} timed out after ${timeout} s of virtual time: ${who}`);
    this.name = 'CollectiveTimeoutError';
    this.missingRanks = missing;
    this.atSeconds = at;
  }
}

interface PendingCollective {
  request: Required<Pick<CollectiveRequest, 'key' | 'kind' | 'bytes' | 'label'>> & {
    members: readonly number[];
  };
  /** Per member that has issued it: its compute clock then, and the collective before it on its stream. */
  issued: Map<number, { ready: number; after?: PendingCollective }>;
  duration: number;
  end?: number;
  /** Each member's arrival, once the collective has completed. */
  arrivals?: Map<number, number>;
}

interface RankState {
  clock: RankClock;
  /** The last collective queued on this rank's communication stream. */
  lastIssued?: PendingCollective;
  step: number;
}

export class VirtualClocks {
  readonly shape: ClusterShape;
  readonly world: number;
  readonly timeline: TimelineSpan[] = [];
  private readonly ranks: RankState[];
  private readonly pending = new Map<string, PendingCollective>();
  private readonly open = new Set<PendingCollective>();
  private readonly options: VirtualClockOptions;

  constructor(shape: ClusterShape, options: VirtualClockOptions = {}) {
    this.shape = shape;
    this.world = worldSize(shape);
    this.options = options;
    for (const r of Object.keys(options.slowdown ?? {})) this.checkRank(Number(r));
    for (const d of options.deaths ?? []) this.checkRank(d.rank);
    for (const r of options.jitter?.ranks ?? []) this.checkRank(r);
    this.ranks = Array.from({ length: this.world }, (_, rank) => ({
      clock: new RankClock(rank, {
        slowdown: options.slowdown?.[rank],
        jitter:
          !options.jitter?.ranks || options.jitter.ranks.includes(rank)
            ? options.jitter
            : undefined,
      }),
      step: 0,
    }));
  }

  /** The rank's program starts step `step`; a rank planned to die there stops arriving anywhere. */
  beginStep(rank: number, step: number): void {
    this.state(rank).step = step;
  }

  isDead(rank: number): boolean {
    const s = this.state(rank);
    return (this.options.deaths ?? []).some((d) => d.rank === rank && s.step >= d.atStep);
  }

  /** Charge `seconds` of kernel time (before faults) to the rank's compute stream. */
  compute(rank: number, seconds: number, label = 'compute'): TimelineSpan {
    const span = this.state(rank).clock.charge(seconds, label);
    this.timeline.push(span);
    return span;
  }

  /** The rank's clock, for reading its position. */
  clockOf(rank: number): RankClock {
    return this.state(rank).clock;
  }

  /** The modelled duration of a collective over `members` (a sub-group spans only its own nodes). */
  collectiveSeconds(
    kind: Collective,
    bytes: number,
    members: readonly number[] = this.allRanks(),
  ): number {
    return groupCollectiveSeconds(this.shape, kind, bytes, members);
  }

  /**
   * The rank reaches a collective. It is queued on the rank's communication stream behind the
   * work issued before it; dead ranks never arrive. Returns the handle `wait` takes.
   */
  issue(rank: number, req: CollectiveRequest): WorkHandle {
    const s = this.state(rank);
    const members = req.members ?? this.allRanks();
    if (!members.includes(rank))
      throw new RangeError(`rank ${rank} is not a member of collective ${req.key}`);
    let p = this.pending.get(req.key);
    if (!p) {
      const request = {
        key: req.key,
        kind: req.kind,
        bytes: req.bytes,
        label: req.label ?? req.kind,
        members,
      };
      const duration =
        req.kind === 'send-recv'
          ? this.sendRecvSeconds(members, req.bytes)
          : this.collectiveSeconds(req.kind, req.bytes, members);
      p = { request, issued: new Map(), duration };
      this.open.add(p);
      this.pending.set(req.key, p);
    } else if (p.request.kind !== req.kind || p.request.bytes !== req.bytes) {
      throw new RangeError(
        `rank ${rank} calls ${req.kind} of ${req.bytes} B as ${req.key}, but others called ${p.request.kind} of ${p.request.bytes} B`,
      );
    }
    if (this.isDead(rank)) return { key: req.key, rank };
    if (p.issued.has(rank)) throw new RangeError(`rank ${rank} issued ${req.key} twice`);
    p.issued.set(rank, { ready: s.clock.now, after: s.lastIssued });
    s.lastIssued = p;
    this.settle();
    return { key: req.key, rank };
  }

  private sendRecvSeconds(members: readonly number[], bytes: number): number {
    if (members.length !== 2)
      throw new RangeError(`send-recv takes members [from, to], got [${members.join(', ')}]`);
    return predictSendRecv(this.shape, members[0]!, members[1]!, bytes).seconds;
  }

  /** When the collective ends, once every member has arrived; undefined before. */
  completion(key: string): number | undefined {
    return this.pending.get(key)?.end;
  }

  /**
   * The rank's compute stream waits for the work: its clock moves to the collective's end. Throws
   * CollectiveTimeoutError when a member is dead, and RangeError if members are still to arrive.
   */
  wait(handle: WorkHandle): number {
    const p = this.pending.get(handle.key);
    if (!p) throw new RangeError(`unknown collective ${handle.key}`);
    const timeout = this.options.collectiveTimeoutSeconds ?? DEFAULT_COLLECTIVE_TIMEOUT_SECONDS;
    // Like PyTorch's watchdog, each rank times the work from when it issued it.
    const issuedAt = p.issued.get(handle.rank)?.ready ?? this.state(handle.rank).clock.now;
    if (p.end === undefined) {
      const missing = p.request.members.filter((r) => !p.issued.has(r));
      if (missing.some((r) => this.isDead(r)))
        throw new CollectiveTimeoutError(handle.key, missing, issuedAt + timeout, timeout);
      if (missing.length > 0)
        throw new RangeError(
          `collective ${handle.key} is still waiting for rank(s) ${missing.join(', ')} to arrive`,
        );
      throw new RangeError(
        `collective ${handle.key} is queued behind communication that has not completed`,
      );
    }
    if (p.end - issuedAt > timeout) {
      const late = [...p.arrivals!].filter(([, a]) => a > issuedAt + timeout).map(([r]) => r);
      throw new CollectiveTimeoutError(handle.key, late, issuedAt + timeout, timeout);
    }
    return this.state(handle.rank).clock.wait(p.end);
  }

  /** Issue and wait at once: a synchronous collective. */
  run(rank: number, req: CollectiveRequest): number {
    return this.wait(this.issue(rank, req));
  }

  report(rank: number): RankReport {
    return this.state(rank).clock.report();
  }

  /** Completes every collective whose members have all issued it and finished what was queued before. */
  private settle(): void {
    for (let progress = true; progress;) {
      progress = false;
      for (const p of this.open) {
        if (p.issued.size < p.request.members.length) continue;
        const entries = [...p.issued.values()];
        if (entries.some((i) => i.after && i.after.end === undefined)) continue;
        this.complete(p);
        progress = true;
      }
    }
  }

  private complete(p: PendingCollective): void {
    // Streams complete in issue order, so each member's stream is free exactly when `after` ended.
    const arrivals = [...p.issued].map(
      ([rank, i]) => [rank, this.state(rank).clock.arrive(i.ready)] as const,
    );
    p.end = collectiveEnd(
      arrivals.map(([, a]) => a),
      p.duration,
    );
    p.arrivals = new Map(arrivals);
    this.open.delete(p);
    for (const [rank, arrival] of arrivals)
      this.timeline.push(
        this.state(rank).clock.finish(arrival, p.end, p.request.label, p.duration),
      );
  }

  private allRanks(): number[] {
    return Array.from({ length: this.world }, (_, r) => r);
  }

  private checkRank(rank: number): void {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.world)
      throw new RangeError(`rank ${rank} is outside a world of ${this.world}`);
  }

  private state(rank: number): RankState {
    this.checkRank(rank);
    return this.ranks[rank]!;
  }
}
