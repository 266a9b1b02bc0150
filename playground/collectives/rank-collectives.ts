import type { AllReduceAlgorithm, ReduceOp } from './dist-api.ts';
import { ringAllReduceRound, twoShotAllReduceRound } from './all-reduce-algorithms.ts';
import { chooseAllReduceAlgorithm } from './auto-algorithm.ts';
import type { CallDescriptor, CollectiveKind, Dtype } from './call-descriptor.ts';
import { CollectiveEngine, type CollectiveRun, type EngineEnv } from './collective-engine.ts';
import type { GroupInfo } from './group-registry.ts';
import { PointToPoint } from './point-to-point.ts';
import type { ReduceKernel } from './kernel/reduce-kernel.ts';
import { allGatherRounds, barrierRound, broadcastRounds, gatherRounds, reduceRounds, reduceScatterRounds, scatterRounds } from './shared-memory-algorithms.ts';
import type { SharedWorld } from './shared-world.ts';
import { allocate, splitChunk, type Payload } from './typed-views.ts';
import type { WaitMode } from './world-sync.ts';

const OPS: readonly ReduceOp[] = ['sum', 'avg', 'max', 'min', 'prod'];
const ALGORITHMS: readonly AllReduceAlgorithm[] = ['auto', 'ring', 'two-shot'];

export interface CallOptions { group?: GroupInfo; async?: boolean }

export const dtypeOf = (p: Payload): Dtype => (p instanceof Int32Array ? 'int32' : 'float32');

/** A payload now, or one still being read from a tensor: its size is known at the call, its data later. */
export type Input = Payload | { dtype: Dtype; length: number; data: Promise<Payload> };

const infoOf = (i: Input): { dtype: Dtype; length: number } =>
  ArrayBuffer.isView(i) ? { dtype: dtypeOf(i), length: i.length } : { dtype: i.dtype, length: i.length };
const dataOf = async (i: Input): Promise<Payload> => (ArrayBuffer.isView(i) ? i : i.data);

/**
 * This rank's collectives on plain typed arrays: argument checks, one call at a time in issue order (as a
 * stream orders NCCL kernels), blocking waits when nothing else on the rank needs the thread.
 */
export class RankCollectives {
  readonly engine: CollectiveEngine;
  readonly p2p: PointToPoint;
  private tail: Promise<unknown> = Promise.resolve();

  /** `kernel`: an already instantiated reduction kernel (else it is instantiated synchronously). */
  constructor(world: SharedWorld, rank: number, env: EngineEnv, kernel?: ReduceKernel) {
    this.engine = new CollectiveEngine(world, rank, env, kernel);
    this.p2p = new PointToPoint(this.engine);
  }

  get rank(): number { return this.engine.rank; }
  get worldSize(): number { return this.engine.worldSize; }

  private group(name: string, g: GroupInfo | undefined): GroupInfo {
    const group = g ?? this.engine.worldGroup;
    if (group.indexOf(this.rank) < 0) throw new Error(`${name}: rank ${this.rank} is not a member of group [${group.members.join(', ')}]`);
    return group;
  }

  private op(name: string, op: unknown): ReduceOp {
    if (op === undefined) return 'sum';
    if (!OPS.includes(op as ReduceOp)) throw new Error(`${name}: unknown op ${JSON.stringify(op)}; use one of ${OPS.join(', ')}`);
    return op as ReduceOp;
  }

  private root(name: string, key: 'src' | 'dst', value: unknown, group: GroupInfo): number {
    if (!Number.isInteger(value) || group.indexOf(value as number) < 0) {
      const within = group.slot === 0 ? `0..${this.worldSize - 1}` : `[${group.members.join(', ')}]`;
      throw new Error(`${name}: ${key} must be a rank in ${within}, got ${JSON.stringify(value)}`);
    }
    return value as number;
  }

  /**
   * Runs `body` as the next collective of this rank, after every earlier one. The input is read before the call
   * starts; a failure after that poisons the world, so peers stop waiting for a rank that will not come.
   */
  private enqueue<T>(kind: CollectiveKind, group: GroupInfo, desc: Omit<CallDescriptor, 'kind'>, async: boolean, input: Input | null, body: (run: CollectiveRun, data: Payload | null) => Promise<T>): Promise<T> {
    const job = async () => {
      let seq = this.engine.nextSeq(group.slot);
      try {
        const data = input ? await dataOf(input) : null;
        if (data && data.length !== desc.length && kind !== 'scatter') throw new Error(`the tensor's data has ${data.length} elements, its shape says ${desc.length}`);
        const mode: WaitMode = async || this.p2p.pending > 0 ? 'async' : 'block';
        const run = this.engine.begin(group, { kind, ...desc }, mode);
        seq = run.seq;
        this.engine.count(kind, 0, 0, true);
        const result = await body(run, data);
        run.verifyArrived();
        this.engine.finish(run);
        return result;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (this.engine.sync.poisonReason() === null) this.engine.abort(`rank ${this.rank} failed in ${kind} (call #${seq} on ${this.engine.groupName(group)}): ${message}`);
        throw err;
      }
    };
    const p = this.tail.then(job, job);
    this.tail = p.catch(() => undefined);
    return p;
  }

  allReduce(input: Input, opts: CallOptions & { op?: ReduceOp; algorithm?: AllReduceAlgorithm; output?: Payload } = {}): Promise<Payload> {
    const group = this.group('allReduce', opts.group);
    const op = this.op('allReduce', opts.op);
    const requested = opts.algorithm ?? 'auto';
    if (!ALGORITHMS.includes(requested)) throw new Error(`allReduce: unknown algorithm ${JSON.stringify(requested)}; use one of ${ALGORITHMS.join(', ')}`);
    const n = group.members.length;
    const { dtype, length } = infoOf(input);
    const algorithm = requested === 'auto' ? chooseAllReduceAlgorithm(length * 4, n) : requested;
    const output = opts.output ?? allocate(dtype, length);
    const round = algorithm === 'ring' ? ringAllReduceRound : twoShotAllReduceRound;
    return this.enqueue('allReduce', group, { op, dtype, length, root: -1, algorithm }, !!opts.async, input, async (run, data) => {
      const per = this.engine.regionElements;
      for (let offset = 0; offset === 0 || offset < length; offset += per) {
        await round(run, { input: data!, output, offset, length: Math.min(per, length - offset) });
      }
      return output;
    });
  }

  /**
   * All-reduce of `length` elements already in this rank's region (the benchmark's raw path: no copy in or out).
   * Must fit one region.
   */
  allReduceInRegion(length: number, dtype: Dtype, opts: CallOptions & { op?: ReduceOp; algorithm?: AllReduceAlgorithm } = {}): Promise<void> {
    if (length > this.engine.regionElements) throw new Error(`allReduceInRegion: ${length} elements do not fit one region (${this.engine.regionElements})`);
    const group = this.group('allReduce', opts.group);
    const op = this.op('allReduce', opts.op);
    const requested = opts.algorithm ?? 'auto';
    const algorithm = requested === 'auto' ? chooseAllReduceAlgorithm(length * 4, group.members.length) : requested;
    const round = algorithm === 'ring' ? ringAllReduceRound : twoShotAllReduceRound;
    return this.enqueue('allReduce', group, { op, dtype, length, root: -1, algorithm }, !!opts.async, null, (run) =>
      round(run, { input: null, output: null, offset: 0, length }));
  }

  reduceScatter(input: Input, opts: CallOptions & { op?: ReduceOp } = {}): Promise<Payload> {
    const group = this.group('reduceScatter', opts.group);
    const op = this.op('reduceScatter', opts.op);
    const { dtype, length } = infoOf(input);
    const out = allocate(dtype, splitChunk(length, group.members.length, group.indexOf(this.rank))[1]);
    return this.enqueue('reduceScatter', group, { op, dtype, length, root: -1, algorithm: null }, !!opts.async, input, async (run, data) => {
      await reduceScatterRounds(run, data!, out);
      return out;
    });
  }

  allGather(input: Input, opts: CallOptions = {}): Promise<Payload> {
    const group = this.group('allGather', opts.group);
    const { dtype, length } = infoOf(input);
    const out = allocate(dtype, length * group.members.length);
    return this.enqueue('allGather', group, { op: null, dtype, length, root: -1, algorithm: null }, !!opts.async, input, async (run, data) => {
      await allGatherRounds(run, data!, out);
      return out;
    });
  }

  /** `input` is needed on src only; others give `length` and `dtype` (their own tensor's). */
  broadcast(input: Input, opts: CallOptions & { src: number }): Promise<Payload> {
    const group = this.group('broadcast', opts.group);
    const src = this.root('broadcast', 'src', opts.src, group);
    const { dtype, length } = infoOf(input);
    const out = allocate(dtype, length);
    return this.enqueue('broadcast', group, { op: null, dtype, length, root: src, algorithm: null }, !!opts.async, this.rank === src ? input : null, async (run, data) => {
      await broadcastRounds(run, data, out, src);
      return out;
    });
  }

  reduce(input: Input, opts: CallOptions & { dst: number; op?: ReduceOp }): Promise<Payload> {
    const group = this.group('reduce', opts.group);
    const dst = this.root('reduce', 'dst', opts.dst, group);
    const op = this.op('reduce', opts.op);
    const { dtype, length } = infoOf(input);
    const out = allocate(dtype, length);
    return this.enqueue('reduce', group, { op, dtype, length, root: dst, algorithm: null }, !!opts.async, input, async (run, data) => {
      await reduceRounds(run, data!, out, dst);
      return out;
    });
  }

  /** On src, `input` holds groupSize slices of `sliceLength`; every member receives its slice. */
  scatter(input: Input | null, sliceLength: number, dtype: Dtype, opts: CallOptions & { src: number }): Promise<Payload> {
    const group = this.group('scatter', opts.group);
    const src = this.root('scatter', 'src', opts.src, group);
    const n = group.members.length;
    if (this.rank === src) {
      if (!input) throw new Error('scatter: the src rank must pass the tensor to scatter');
      const { length } = infoOf(input);
      if (length !== sliceLength * n) throw new Error(`scatter: src tensor has ${length} elements, expected ${n} slices of ${sliceLength}`);
    }
    const out = allocate(dtype, sliceLength);
    return this.enqueue('scatter', group, { op: null, dtype, length: sliceLength, root: src, algorithm: null }, !!opts.async, this.rank === src ? input : null, async (run, data) => {
      await scatterRounds(run, data, out, src);
      return out;
    });
  }

  gather(input: Input, opts: CallOptions & { dst: number }): Promise<Payload | null> {
    const group = this.group('gather', opts.group);
    const dst = this.root('gather', 'dst', opts.dst, group);
    const { dtype, length } = infoOf(input);
    const out = this.rank === dst ? allocate(dtype, length * group.members.length) : null;
    return this.enqueue('gather', group, { op: null, dtype, length, root: dst, algorithm: null }, !!opts.async, input, async (run, data) => {
      await gatherRounds(run, data!, out, dst);
      return out;
    });
  }

  barrier(opts: CallOptions = {}): Promise<void> {
    const group = this.group('barrier', opts.group);
    return this.enqueue('barrier', group, { op: null, dtype: 'float32', length: 0, root: -1, algorithm: null }, !!opts.async, null, barrierRound);
  }

  private peer(name: string, key: 'src' | 'dst', value: unknown): number {
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) >= this.worldSize) {
      throw new Error(`${name}: ${key} must be a rank in 0..${this.worldSize - 1}, got ${JSON.stringify(value)}`);
    }
    if (value === this.rank) throw new Error(`${name}: rank ${this.rank} cannot ${name} to itself`);
    return value as number;
  }

  send(input: Input, opts: { dst: number; async?: boolean }): Promise<void> {
    const dst = this.peer('send', 'dst', opts.dst);
    this.engine.throwIfPoisoned();
    // Point-to-point always waits asynchronously: a rank may have sends and receives in flight at once.
    return this.p2p.send(input, dst, 'async');
  }

  recv(length: number, dtype: Dtype, opts: { src: number; async?: boolean }): Promise<Payload> {
    const src = this.peer('recv', 'src', opts.src);
    this.engine.throwIfPoisoned();
    return this.p2p.recv(length, dtype, src, 'async');
  }

  newGroup(ranks: number[]): GroupInfo {
    return this.engine.newGroup(ranks);
  }

  abort(reason: string): void {
    this.engine.abort(reason);
  }
}
