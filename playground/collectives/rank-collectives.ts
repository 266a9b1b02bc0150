import type { AllReduceAlgorithm, CommStats, Dtype, ReduceOp } from '../contract/protocol.ts';
import type { Input } from './argument-checks.ts';
import { CollectiveEngine, type EngineEnv } from './collective-engine.ts';
import type { ReduceKernel } from './kernel/reduce-kernel.ts';
import { PointToPoint } from './point-to-point.ts';
import { CallQueue, ProcessGroup, type RankComm } from './process-group.ts';
import type { SharedWorld } from './shared-world.ts';
import type { Payload } from './typed-views.ts';

export type { Input } from './argument-checks.ts';
export { dtypeOf } from './argument-checks.ts';

export interface CallOptions {
  group?: ProcessGroup;
  async?: boolean;
}

/**
 * One rank's membership of the shared world: its engine, its process groups (one per member set, so ranks
 * naming the same members share one sequence of calls) and typed-array shortcuts that call
 * `(opts.group ?? world)` and wait. The runtime, tests and benchmarks hold this; readers get only `dist`.
 */
export class RankCollectives {
  readonly engine: CollectiveEngine;
  readonly p2p: PointToPoint;
  readonly world: ProcessGroup;
  readonly #groups = new Map<number, ProcessGroup>();
  readonly #comm: RankComm;

  /** `kernel`: an already instantiated reduction kernel (else it is instantiated synchronously). */
  constructor(world: SharedWorld, rank: number, env: EngineEnv, kernel?: ReduceKernel) {
    this.engine = new CollectiveEngine(
      world,
      rank,
      env,
      (slot) => this.#groups.get(slot)?.nextSeq ?? 0,
      kernel,
    );
    this.p2p = new PointToPoint(this.engine);
    this.#comm = { engine: this.engine, p2p: this.p2p, queue: new CallQueue() };
    this.world = new ProcessGroup(this.#comm, this.engine.worldGroup);
    this.#groups.set(0, this.world);
  }

  get rank(): number {
    return this.engine.rank;
  }

  get worldSize(): number {
    return this.engine.worldSize;
  }

  /** The group of these members (the same object for the same members). */
  newGroup(ranks: number[]): ProcessGroup {
    const info = this.engine.newGroup(ranks);
    let group = this.#groups.get(info.slot);
    if (!group) this.#groups.set(info.slot, (group = new ProcessGroup(this.#comm, info)));
    return group;
  }

  #on(opts: CallOptions | undefined): ProcessGroup {
    return opts?.group ?? this.world;
  }

  allReduce(
    input: Input,
    opts: CallOptions & { op?: ReduceOp; algorithm?: AllReduceAlgorithm } = {},
  ): Promise<Payload> {
    return this.#on(opts).allReduce(input, opts).wait();
  }

  /** All-reduce of `length` elements already in this rank's region (the benchmark's raw path). */
  allReduceInRegion(
    length: number,
    dtype: Dtype,
    opts: CallOptions & { op?: ReduceOp; algorithm?: AllReduceAlgorithm } = {},
  ): Promise<void> {
    return this.#on(opts).allReduceInRegion(length, dtype, opts).wait();
  }

  reduceScatter(input: Input, opts: CallOptions & { op?: ReduceOp } = {}): Promise<Payload> {
    return this.#on(opts).reduceScatter(input, opts).wait();
  }

  allGather(input: Input, opts: CallOptions = {}): Promise<Payload> {
    return this.#on(opts).allGather(input, opts).wait();
  }

  broadcast(input: Input, opts: CallOptions & { src: number }): Promise<Payload> {
    return this.#on(opts).broadcast(input, opts).wait();
  }

  reduce(input: Input, opts: CallOptions & { dst: number; op?: ReduceOp }): Promise<Payload> {
    return this.#on(opts).reduce(input, opts).wait();
  }

  scatter(
    input: Input | null,
    sliceLength: number,
    dtype: Dtype,
    opts: CallOptions & { src: number },
  ): Promise<Payload> {
    return this.#on(opts).scatter(input, sliceLength, dtype, opts).wait();
  }

  gather(input: Input, opts: CallOptions & { dst: number }): Promise<Payload | null> {
    return this.#on(opts).gather(input, opts).wait();
  }

  barrier(opts: CallOptions = {}): Promise<void> {
    return this.#on(opts).barrier(opts).wait();
  }

  send(input: Input, opts: { dst: number; async?: boolean }): Promise<void> {
    return this.world.send(input, opts).wait();
  }

  recv(length: number, dtype: Dtype, opts: { src: number; async?: boolean }): Promise<Payload> {
    return this.world.recv(length, dtype, opts).wait();
  }

  commStats(): CommStats {
    return this.engine.counters.snapshot();
  }

  abort(reason: string): void {
    this.engine.abort(reason);
  }
}
