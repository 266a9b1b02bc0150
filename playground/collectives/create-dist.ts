import type * as tfNamespace from '@tensorflow/tfjs';
import type { Backend, CommStats, Dtype, TraceEvent } from '../contract/protocol.ts';
import {
  checkDtype,
  checkOptions,
  checkShape,
  checkTensor,
  tensorInput,
  type Input,
  type TensorLike,
} from './argument-checks.ts';
import type { Dist, ProcessGroupHandle, Simulation, Work } from './dist-api.ts';
import { loadReduceKernel } from './kernel/reduce-kernel.ts';
import { PeerLiveness } from './peer-liveness.ts';
import type { ProcessGroup } from './process-group.ts';
import type { RankClock } from '../simulation/rank-clock.ts';
import {
  startRankClock,
  type RankSimulation,
  type ResolvedCluster,
  type SimulationSinks,
} from '../simulation/start-rank-clock.ts';
import { CallWork } from './call-work.ts';
import { RankCollectives } from './rank-collectives.ts';
import { registerRankContext } from './rank-context.ts';
import type { SharedWorld } from './shared-world.ts';
import { TensorOutputPool } from './tensor-output-pool.ts';
import { splitChunk, type Payload } from './typed-views.ts';

type Tf = typeof tfNamespace;
type Tensor = tfNamespace.Tensor;
type Ret<T, O> = O extends { async: true } ? Work<T> : Promise<T>;

export interface RankEnv {
  tf: Tf;
  backend: Backend;
  onTrace?: (e: TraceEvent) => void;
  /** Warnings for the reader that are not errors (a long wait for a busy peer). */
  onNotice?: (text: string) => void;
  now?: () => number;
  /** Run in virtual time on this simulated cluster, reporting to `sinks`. */
  simulation?: { cluster: ResolvedCluster; sinks: SimulationSinks };
  /** This rank shares its thread with other logical ranks (see EngineEnv.hosted). */
  hosted?: boolean;
  /** Every rank this thread hosts, in a world that shares threads (see EngineEnv.threadRanks). */
  threadRanks?: readonly number[];
  /** With `hosted`: resolves once this rank may run again; a collective's result is handed over only then. */
  resume?: () => Promise<void>;
}

/** The group behind each handle a reader holds; readers never see the ProcessGroup itself. */
const groupsOf = new WeakMap<ProcessGroupHandle, ProcessGroup>();

function handleFor(group: ProcessGroup, me: number): ProcessGroupHandle {
  const handle: ProcessGroupHandle = Object.freeze({
    ranks: Object.freeze([...group.info.members]),
    rank: group.info.indexOf(me),
    size: group.size,
  });
  groupsOf.set(handle, group);
  return handle;
}

/**
 * The reader's `dist`: converts and checks a tensor once, then hands the call to `opts.group ?? world`.
 * Everything underneath (engine, shared words, mailboxes) sits in private fields, out of a program's reach.
 */
class RankDist implements Dist {
  readonly rank: number;
  readonly worldSize: number;
  readonly backend: Backend;
  readonly simulation: Simulation | null;
  readonly #comm: RankCollectives;
  readonly #tf: Tf;
  readonly #outputs: TensorOutputPool;
  readonly #handles = new Map<ProcessGroup, ProcessGroupHandle>();
  /** Pinned input arrays, released when the call that reads them settles. */
  #reading: (() => void)[] = [];
  readonly #clock: RankClock;
  readonly #resume: (() => Promise<void>) | undefined;

  constructor(
    comm: RankCollectives,
    tf: Tf,
    backend: Backend,
    outputs: TensorOutputPool,
    clock: RankClock,
    sim: RankSimulation | null,
    resume?: () => Promise<void>,
  ) {
    this.#resume = resume;
    this.rank = comm.rank;
    this.worldSize = comm.worldSize;
    this.backend = backend;
    this.#comm = comm;
    this.#tf = tf;
    this.#outputs = outputs;
    this.#clock = clock;
    this.simulation = sim ? sim.facade() : null;
  }

  #isTensor = (t: unknown): t is TensorLike => t instanceof this.#tf.Tensor;

  /** The call's options and the group it runs on. */
  #route(
    name: string,
    opts: unknown,
    required: readonly string[] = [],
  ): { o: Record<string, unknown>; group: ProcessGroup } {
    // Pins left by a call that threw before it was queued: nothing will read them.
    for (const done of this.#reading) done();
    this.#reading = [];
    const o = checkOptions(name, opts, required);
    if (o.group === undefined) return { o, group: this.#comm.world };
    const group = groupsOf.get(o.group as ProcessGroupHandle);
    if (!group) throw new Error('group: pass a group made by dist.newGroup(ranks)');
    return { o, group };
  }

  /** Checks a tensor and starts reading it; its array stays pinned until the call's `#settle`. */
  #tensor(name: string, t: unknown): { input: Input & { dtype: Dtype }; shape: number[] } {
    return tensorInput(name, t, this.#isTensor, (c) => {
      const { data, done } = this.#outputs.readInput((c as Tensor).dataId, () => c.data());
      this.#reading.push(done);
      return data;
    });
  }

  /** An output array for a result of `length` elements (pooled; released in `#settle`). */
  #out(dtype: Dtype, length: number): Payload {
    const out = this.#outputs.take(dtype, length);
    this.#reading.push(() => this.#outputs.release(out));
    return out;
  }

  /**
   * A promise of a new tensor, or a Work when `{ async: true }`. Once the result is a tensor (or the call
   * failed) the call's input and output arrays are unpinned.
   */
  #settle<T, R>(
    work: Work<T>,
    o: Record<string, unknown>,
    make: (out: T) => R,
  ): Promise<R> | Work<R> {
    const pinned = this.#reading;
    this.#reading = [];
    const resume = this.#resume;
    // A rank sharing its thread makes its result tensor (in its own engine state) only on its own turn.
    const waited = resume
      ? work.wait().then(
          (out) => resume().then(() => out),
          (error: unknown) =>
            resume().then(() => {
              throw error;
            }),
        )
      : work.wait();
    const p = waited.then(make).finally(() => pinned.forEach((done) => done()));
    const end = CallWork.endOf(work);
    const clock = this.#clock;
    // Virtual time: the compute clock waits where the program waits (at once for a synchronous call).
    if (o.async !== true) {
      clock.waitFor(end);
      return p;
    }
    return new CallWork(p, end, {
      beforeWait: () => clock.waitFor(end),
      isCompleted: () => work.isCompleted(),
    });
  }

  #make(shape: number[], dtype: Dtype): (out: Payload) => Tensor {
    return (out) => this.#tf.tensor(out, shape, dtype);
  }

  allReduce<O>(t: Tensor, opts?: O): Ret<Tensor, O> {
    const { o, group } = this.#route('allReduce', opts);
    const { input, shape } = this.#tensor('allReduce', t);
    const out = this.#out(input.dtype, input.length);
    return this.#settle(group.allReduce(input, o, out), o, this.#make(shape, input.dtype)) as Ret<
      Tensor,
      O
    >;
  }

  reduceScatter<O>(t: Tensor, opts?: O): Ret<Tensor, O> {
    const { o, group } = this.#route('reduceScatter', opts);
    const { input } = this.#tensor('reduceScatter', t);
    const idx = group.info.indexOf(this.rank);
    const out =
      idx < 0 ? undefined : this.#out(input.dtype, splitChunk(input.length, group.size, idx)[1]);
    return this.#settle(group.reduceScatter(input, o, out), o, (out) =>
      this.#tf.tensor(out, [out.length], input.dtype),
    ) as Ret<Tensor, O>;
  }

  allGather<O>(t: Tensor, opts?: O): Ret<Tensor, O> {
    const { o, group } = this.#route('allGather', opts);
    const { input, shape } = this.#tensor('allGather', t);
    const out = this.#out(input.dtype, input.length * group.size);
    return this.#settle(
      group.allGather(input, o, out),
      o,
      this.#make([group.size, ...shape], input.dtype),
    ) as Ret<Tensor, O>;
  }

  broadcast<O>(t: Tensor, opts: O): Ret<Tensor, O> {
    const { o, group } = this.#route('broadcast', opts, ['src']);
    const { input, shape } = this.#tensor('broadcast', t);
    const out = this.#out(input.dtype, input.length);
    return this.#settle(group.broadcast(input, o, out), o, this.#make(shape, input.dtype)) as Ret<
      Tensor,
      O
    >;
  }

  reduce<O>(t: Tensor, opts: O): Ret<Tensor, O> {
    const { o, group } = this.#route('reduce', opts, ['dst']);
    const { input, shape } = this.#tensor('reduce', t);
    const out = this.#out(input.dtype, input.length);
    return this.#settle(group.reduce(input, o, out), o, this.#make(shape, input.dtype)) as Ret<
      Tensor,
      O
    >;
  }

  scatter<O>(t: Tensor | null, opts: O): Ret<Tensor, O> {
    const { o, group } = this.#route('scatter', opts, ['src']);
    let sliceShape: number[];
    let dtype: Dtype;
    let src: Input | null = null;
    if (this.rank === o.src) {
      const { input, shape } = this.#tensor('scatter', t);
      if (shape[0] !== group.size)
        throw new Error(
          `scatter: on src the tensor's leading axis must be the group size ${group.size}, got shape [${shape.join(', ')}]`,
        );
      sliceShape = shape.slice(1);
      dtype = input.dtype;
      src = input;
    } else if (t !== null && t !== undefined) {
      const checked = checkTensor('scatter', t, this.#isTensor);
      sliceShape = checked.shape;
      dtype = checked.dtype;
    } else {
      if (!Array.isArray(o.shape))
        throw new Error(
          'scatter: ranks other than src pass a tensor of the slice shape, or null with {shape}',
        );
      sliceShape = checkShape('scatter', o.shape);
      dtype = checkDtype('scatter', o.dtype);
    }
    const sliceLength = sliceShape.reduce((a, b) => a * b, 1);
    return this.#settle(
      group.scatter(src, sliceLength, dtype, o),
      o,
      this.#make(sliceShape, dtype),
    ) as Ret<Tensor, O>;
  }

  gather<O>(t: Tensor, opts: O): Ret<Tensor | null, O> {
    const { o, group } = this.#route('gather', opts, ['dst']);
    const { input, shape } = this.#tensor('gather', t);
    const make = this.#make([group.size, ...shape], input.dtype);
    return this.#settle(group.gather(input, o), o, (out) => (out ? make(out) : null)) as Ret<
      Tensor | null,
      O
    >;
  }

  barrier<O>(opts?: O): Ret<void, O> {
    const { o, group } = this.#route('barrier', opts);
    return this.#settle(group.barrier(o), o, () => undefined) as Ret<void, O>;
  }

  send<O>(t: Tensor, opts: O): Ret<void, O> {
    const o = checkOptions('send', opts, ['dst']);
    const { input } = this.#tensor('send', t);
    return this.#settle(this.#comm.world.send(input, o), o, () => undefined) as Ret<void, O>;
  }

  recv<O>(shape: number[], opts: O): Ret<Tensor, O> {
    const o = checkOptions('recv', opts, ['src']);
    checkShape('recv', shape);
    const dtype = checkDtype('recv', o.dtype);
    const length = shape.reduce((a, b) => a * b, 1);
    return this.#settle(
      this.#comm.world.recv(length, dtype, o),
      o,
      this.#make(shape, dtype),
    ) as Ret<Tensor, O>;
  }

  newGroup(ranks: number[]): ProcessGroupHandle {
    const group = this.#comm.newGroup(ranks);
    let handle = this.#handles.get(group);
    if (!handle) this.#handles.set(group, (handle = handleFor(group, this.rank)));
    return handle;
  }

  commStats(): CommStats {
    return this.#comm.commStats();
  }
}

/**
 * Joins the shared world as `rank` (call inside the rank worker): `dist` is for the reader's program,
 * `comm` stays with the runtime (abort on failure, benchmarks and tests on typed arrays).
 */
export async function joinWorld(
  world: SharedWorld,
  rank: number,
  env: RankEnv,
): Promise<{
  dist: Dist;
  comm: RankCollectives;
  outputs: TensorOutputPool;
  sim: RankSimulation | null;
}> {
  const now = env.now ?? (() => performance.now());
  const comm = new RankCollectives(
    world,
    rank,
    {
      now,
      onTrace: env.onTrace,
      onNotice: env.onNotice,
      hosted: env.hosted,
      threadRanks: env.threadRanks,
    },
    await loadReduceKernel(world.memory),
  );
  const outputs = new TensorOutputPool(env.tf);
  const { clock, sim } = startRankClock(rank, env.simulation);
  if (sim && sim.shape.nodes * sim.shape.gpusPerNode !== comm.worldSize)
    throw new Error(
      `the simulated cluster has ${sim.shape.nodes * sim.shape.gpusPerNode} GPUs, the world ${comm.worldSize} ranks`,
    );
  comm.engine.clock = clock;
  const dist = new RankDist(comm, env.tf, env.backend, outputs, clock, sim, env.resume);
  // Peers tell a rank that computes (tfjs kernels keep running) from one that spins in an endless loop.
  PeerLiveness.watchKernels(env.tf, comm.engine.board, rank);
  registerRankContext({
    dist,
    now,
    trace: (e) => comm.engine.trace(e),
    sim,
    ...(env.resume ? { resume: env.resume } : {}),
  });
  return { dist, comm, outputs, sim };
}
