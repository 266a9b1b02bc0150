/**
 * Virtual time for a world of ranks, as a pure state machine the runtime drives: each rank has a
 * compute stream and a communication stream, like a CUDA compute stream beside NCCL's stream. A
 * collective starts on a rank when both the work before it and the rank's previous communication
 * are done, and ends for everyone at the last member's arrival plus its modelled duration.
 */
import { predictCollective, predictSendRecv, type Collective } from './collective-model.ts';
import { clusterShape, nodeOfRank, worldSize, type ClusterShape } from './cluster-shape.ts';
import { seededUnit } from './seeded-random.ts';

export type Lane = 'compute' | 'comm';

export interface TimelineSpan {
  rank: number;
  lane: Lane;
  label: string;
  start: number;
  end: number;
}

export interface FaultPlan {
  /** Compute on these ranks takes `factor` times longer (a slower GPU, thermal throttling). */
  slowdown?: Readonly<Record<number, number>>;
  /** Every compute span is stretched by a factor in [1, 1 + amplitude), drawn from `seed`. */
  jitter?: { amplitude: number; seed: number };
  /** The rank stops at the start of step `atStep` (0-based) and never reaches another collective. */
  deaths?: readonly { rank: number; atStep: number }[];
}

export interface VirtualClockOptions extends FaultPlan {
  /** Seconds a collective waits for missing ranks before failing; PyTorch's NCCL default is 10 minutes. */
  collectiveTimeoutSeconds?: number;
}

/** torch.distributed's default timeout for NCCL process groups (default_pg_nccl_timeout, 10 minutes). */
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

export class CollectiveTimeoutError extends Error {
  readonly missingRanks: readonly number[];
  readonly atSeconds: number;
  constructor(key: string, missing: readonly number[], at: number, timeout: number) {
    super(`collective ${key} timed out after ${timeout} s of virtual time: rank${missing.length === 1 ? '' : 's'} ${missing.join(', ')} never arrived`);
    this.name = 'CollectiveTimeoutError';
    this.missingRanks = missing;
    this.atSeconds = at;
  }
}

interface PendingCollective {
  request: Required<Pick<CollectiveRequest, 'key' | 'kind' | 'bytes' | 'label'>> & { members: readonly number[] };
  /** Per member that has issued it: its compute clock then, and the collective before it on its stream. */
  issued: Map<number, { ready: number; after?: PendingCollective }>;
  duration: number;
  end?: number;
}

interface RankState {
  compute: number;
  /** The last collective queued on this rank's communication stream. */
  lastIssued?: PendingCollective;
  step: number;
  computeSpans: number;
  busyCompute: number;
  busyComm: number;
  exposedComm: number;
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
    for (const [r, f] of Object.entries(options.slowdown ?? {})) {
      this.checkRank(Number(r));
      if (!(f >= 1)) throw new RangeError(`slowdown of rank ${r} must be ≥ 1, got ${f}`);
    }
    if (options.jitter && !(options.jitter.amplitude >= 0)) throw new RangeError('jitter amplitude must be ≥ 0');
    for (const d of options.deaths ?? []) this.checkRank(d.rank);
    this.ranks = Array.from({ length: this.world }, () => ({ compute: 0, step: 0, computeSpans: 0, busyCompute: 0, busyComm: 0, exposedComm: 0 }));
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
    if (!(seconds >= 0)) throw new RangeError(`compute time must be ≥ 0, got ${seconds}`);
    const s = this.state(rank);
    const slow = this.options.slowdown?.[rank] ?? 1;
    const j = this.options.jitter;
    const jitter = j ? 1 + j.amplitude * seededUnit(j.seed, rank, s.computeSpans) : 1;
    s.computeSpans++;
    const span = { rank, lane: 'compute' as const, label, start: s.compute, end: s.compute + seconds * slow * jitter };
    s.compute = span.end;
    s.busyCompute += span.end - span.start;
    this.timeline.push(span);
    return span;
  }

  /** The modelled duration of a collective over `members` (a sub-group spans only its own nodes). */
  collectiveSeconds(kind: Collective, bytes: number, members: readonly number[] = this.allRanks()): number {
    const nodes = new Map<number, number>();
    for (const r of members) nodes.set(nodeOfRank(this.shape, r), (nodes.get(nodeOfRank(this.shape, r)) ?? 0) + 1);
    const sub = clusterShape(this.shape.preset, nodes.size, Math.max(...nodes.values()));
    return predictCollective(sub, kind, bytes).seconds;
  }

  /**
   * The rank reaches a collective. It is queued on the rank's communication stream behind the
   * work issued before it; dead ranks never arrive. Returns the handle `wait` takes.
   */
  issue(rank: number, req: CollectiveRequest): WorkHandle {
    const s = this.state(rank);
    const members = req.members ?? this.allRanks();
    if (!members.includes(rank)) throw new RangeError(`rank ${rank} is not a member of collective ${req.key}`);
    let p = this.pending.get(req.key);
    if (!p) {
      const request = { key: req.key, kind: req.kind, bytes: req.bytes, label: req.label ?? req.kind, members };
      const duration = req.kind === 'send-recv' ? this.sendRecvSeconds(members, req.bytes) : this.collectiveSeconds(req.kind, req.bytes, members);
      p = { request, issued: new Map(), duration };
      this.open.add(p);
      this.pending.set(req.key, p);
    } else if (p.request.kind !== req.kind || p.request.bytes !== req.bytes) {
      throw new RangeError(`rank ${rank} calls ${req.kind} of ${req.bytes} B as ${req.key}, but others called ${p.request.kind} of ${p.request.bytes} B`);
    }
    if (this.isDead(rank)) return { key: req.key, rank };
    if (p.issued.has(rank)) throw new RangeError(`rank ${rank} issued ${req.key} twice`);
    p.issued.set(rank, { ready: s.compute, after: s.lastIssued });
    s.lastIssued = p;
    this.settle();
    return { key: req.key, rank };
  }

  private sendRecvSeconds(members: readonly number[], bytes: number): number {
    if (members.length !== 2) throw new RangeError(`send-recv takes members [from, to], got [${members.join(', ')}]`);
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
    if (p.end === undefined) {
      const missing = p.request.members.filter((r) => !p.issued.has(r));
      if (missing.some((r) => this.isDead(r))) {
        const timeout = this.options.collectiveTimeoutSeconds ?? DEFAULT_COLLECTIVE_TIMEOUT_SECONDS;
        const at = Math.max(...[...p.issued.values()].map((i) => Math.max(i.ready, i.after?.end ?? 0))) + timeout;
        throw new CollectiveTimeoutError(handle.key, missing, at, timeout);
      }
      if (missing.length > 0) throw new RangeError(`collective ${handle.key} is still waiting for rank(s) ${missing.join(', ')} to arrive`);
      throw new RangeError(`collective ${handle.key} is queued behind communication that has not completed`);
    }
    const s = this.state(handle.rank);
    if (p.end > s.compute) {
      s.exposedComm += p.end - s.compute;
      s.compute = p.end;
    }
    return s.compute;
  }

  /** Issue and wait at once: a synchronous collective. */
  run(rank: number, req: CollectiveRequest): number {
    return this.wait(this.issue(rank, req));
  }

  report(rank: number): RankReport {
    const s = this.state(rank);
    return { rank, clock: s.compute, computeSeconds: s.busyCompute, commSeconds: s.busyComm, exposedCommSeconds: s.exposedComm };
  }

  /** Completes every collective whose members have all issued it and finished what was queued before. */
  private settle(): void {
    for (let progress = true; progress; ) {
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
    const arrival = (i: { ready: number; after?: PendingCollective }) => Math.max(i.ready, i.after?.end ?? 0);
    const start = Math.max(...[...p.issued.values()].map(arrival));
    p.end = start + p.duration;
    this.open.delete(p);
    for (const [rank, i] of p.issued) {
      this.state(rank).busyComm += p.duration;
      // The stream is occupied from arrival: waiting for late peers is part of the collective.
      this.timeline.push({ rank, lane: 'comm', label: p.request.label, start: arrival(i), end: p.end });
    }
  }

  private allRanks(): number[] {
    return Array.from({ length: this.world }, (_, r) => r);
  }

  private checkRank(rank: number): void {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.world) throw new RangeError(`rank ${rank} is outside a world of ${this.world}`);
  }

  private state(rank: number): RankState {
    this.checkRank(rank);
    return this.ranks[rank]!;
  }
}
