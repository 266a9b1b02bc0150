import type { AllReduceAlgorithm, CollectiveKind, Dtype, ReduceOp } from '../contract/protocol.ts';
import {
  checkAlgorithm,
  checkMember,
  checkOp,
  checkOptions,
  checkPeer,
  checkRoot,
  dtypeOf,
  inputInfo,
  type Input,
} from './argument-checks.ts';
import { chooseAllReduceAlgorithm } from './auto-algorithm.ts';
import type { CallDescriptor } from './call-descriptor.ts';
// A call in flight is the reader's `Work` (dist-api.ts), declared once; CallWork carries its virtual end.
import type { Work } from './dist-api.ts';
import { CallWork } from './call-work.ts';
import type { CollectiveEngine } from './collective-engine.ts';
import type { CollectiveRun, GroupSequence } from './collective-run.ts';
import { rankFailedMessage } from './failure-messages.ts';
import type { GroupInfo } from './group-registry.ts';
import type { PointToPoint } from './point-to-point.ts';
import { COLLECTIVE_ALGORITHMS as RUN } from './collective-algorithms.ts';
import { allocate, splitChunk, type Payload } from './typed-views.ts';
import type { WaitMode } from './world-sync.ts';
import {
  allGatherBytes,
  allGatherOnThread,
  allOnThread,
  allReduceOnThread,
  barrierOnThread,
  broadcastOnThread,
  chainAllReduce,
  gatherOnThread,
  reduceBytes,
  reduceOnThread,
  reduceScatterBytes,
  reduceScatterOnThread,
  runOnThread,
  scatterOnThread,
  type Compute,
  spanningAllGather,
  spanOf,
  takesThreadPath,
  twoShotBytes,
  type ThreadSpan,
  type ThreadWorld,
} from './thread-collectives.ts';
/** Bytes a call counts on this member, [sent, received], as the engine's algorithm would move them. */
type Counted = readonly [number, number];

/**
 * This rank's calls in issue order, across all its groups (as one NCCL stream orders a device's kernels):
 * every group writes the same per-rank data region, so two calls must never run at once.
 */
export class CallQueue {
  #tail: Promise<unknown> = Promise.resolve();

  add<T>(job: () => Promise<T>): Promise<T> {
    const p = this.#tail.then(job, job);
    this.#tail = p.catch(() => undefined);
    return p;
  }
}

/** What the groups of one rank share. */
export interface RankComm {
  readonly engine: CollectiveEngine;
  readonly p2p: PointToPoint;
  readonly queue: CallQueue;
}

const rooted = { op: null, root: -1, algorithm: null } as const;

/** The caller's output array, which must match the result exactly, or a new one. */
function checkOutput(
  name: string,
  output: Payload | undefined,
  dtype: Dtype,
  length: number,
): Payload {
  if (!output) return allocate(dtype, length);
  if (dtypeOf(output) !== dtype || output.length !== length)
    throw new Error(`${name}: the output array must be ${dtype} of ${length} elements`);
  return output;
}

/**
 * A process group on this rank, as c10d's ProcessGroup: it checks every argument at the call, owns the
 * group's sequence numbers and call descriptors, queues the call behind this rank's earlier ones, and
 * returns a `Work`. Calls take typed arrays (or tensors' data still being read); `dist` adds tensors.
 */
export class ProcessGroup {
  readonly info: GroupInfo;
  readonly #comm: RankComm;
  readonly #sequence: GroupSequence = { seq: 0, steps: 0 };
  /** This thread's side of the world when every member lives on it (thread-collectives.ts), else null. */
  readonly #thread: ThreadWorld | null;
  /** This thread's run of the group when it spans threads in blocks (an all-reduce goes as a chain), else null. */
  readonly #span: ThreadSpan | null;

  constructor(comm: RankComm, info: GroupInfo) {
    this.#comm = comm;
    this.info = info;
    const thread = comm.engine.thread;
    this.#thread = thread && allOnThread(thread, info) ? thread : null;
    this.#span = thread && !this.#thread ? spanOf(thread, info) : null;
  }

  /** Where `run` goes on this thread, if it does: its group lives here and its kind and algorithm take the path. */
  #onThread(run: CollectiveRun): ThreadWorld | null {
    const { kind, algorithm, length } = run.desc;
    return this.#thread && takesThreadPath(kind, algorithm, length) ? this.#thread : null;
  }

  /**
   * Runs `run` on this thread with `compute` when it takes the path (every member here; see #onThread), counting
   * the [sent, received] bytes `bytes` gives, as the engine would; false when it goes to the engine. A member with
   * no input (not the source) or no output (not the destination) hands over an empty array.
   */
  async #onThreadCall(
    run: CollectiveRun,
    input: Payload | null,
    output: Payload | null,
    compute: Compute,
    bytes: () => Counted,
  ): Promise<boolean> {
    const thread = this.#onThread(run);
    if (!thread) return false;
    const none = allocate(run.dtype, 0);
    const [sent, received] = bytes();
    const [i, o] = [input ?? none, output ?? none];
    await runOnThread(thread, run.group.members, run, i, o, compute, sent, received);
    return true;
  }

  /** Sequence number of this rank's next call in the group. */
  get nextSeq(): number {
    return this.#sequence.seq;
  }

  get size(): number {
    return this.info.members.length;
  }

  get #rank(): number {
    return this.#comm.engine.rank;
  }

  #member(name: string): void {
    checkMember(name, this.info, this.#rank);
  }

  #root(name: string, key: 'src' | 'dst', value: unknown): number {
    return checkRoot(name, key, value, this.info, this.#comm.engine.worldSize);
  }

  /**
   * Runs `body` as this rank's next call, after every earlier one. The input is read before the call starts;
   * a failure after that poisons the world, so peers stop waiting for a rank that will not come.
   */
  #enqueue<T>(
    kind: CollectiveKind,
    desc: Omit<CallDescriptor, 'kind'>,
    async: unknown,
    input: Input | null,
    body: (run: CollectiveRun, data: Payload | null) => Promise<T>,
  ): Work<T> {
    const { engine, p2p, queue } = this.#comm;
    // In program order: the clock at this call is the earliest it can start (real time: no virtual time).
    const call = engine.clock.issueCall();
    return new CallWork(
      queue.add(async () => {
        let seq = this.#sequence.seq;
        try {
          const data = input ? (ArrayBuffer.isView(input) ? input : await input.data) : null;
          if (data && data.length !== desc.length && kind !== 'scatter')
            throw new Error(
              `the tensor's data has ${data.length} elements, its shape says ${desc.length}`,
            );
          const mode: WaitMode = async || p2p.pending > 0 || engine.hosted ? 'async' : 'block';
          const arriving = call.arrive((t) =>
            engine.writeArrival(this.info.slot, this.#sequence.seq, t),
          );
          const arrival = typeof arriving === 'number' ? arriving : await arriving;
          const run = engine.begin(this.info, this.#sequence, { kind, ...desc }, mode);
          run.virtualArrival = arrival;
          seq = run.seq;
          engine.count(kind, 0, 0, true);
          const result = await body(run, data);
          run.verifyArrived();
          const completing = call.complete(run.timing());
          if (completing) await completing;
          engine.finish(run, this.#sequence);
          return result;
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          if (engine.sync.poisonReason() === null)
            engine.abort(
              rankFailedMessage(engine.rank, kind, seq, engine.groupName(this.info), message),
            );
          throw err;
        }
      }),
      call.end,
    );
  }

  #allReduceRound(length: number, requested: AllReduceAlgorithm) {
    const algorithm =
      requested === 'auto' ? chooseAllReduceAlgorithm(length * 4, this.size) : requested;
    return { algorithm, round: RUN.allReduce[algorithm].run };
  }

  /** `output`: where the result goes (`dist` passes a pooled array), else a new array. */
  allReduce(input: Input, options?: unknown, output?: Payload): Work<Payload> {
    const o = checkOptions('allReduce', options);
    this.#member('allReduce');
    const op = checkOp('allReduce', o.op);
    const { algorithm, round } = this.#allReduceRound(
      inputInfo(input).length,
      checkAlgorithm('allReduce', o.algorithm),
    );
    const { dtype, length } = inputInfo(input);
    const out = checkOutput('allReduce', output, dtype, length);
    const per = this.#comm.engine.regionElements;
    return this.#enqueue(
      'allReduce',
      { op, dtype, length, root: -1, algorithm },
      o.async,
      input,
      async (run, data) => {
        const bytes = () => twoShotBytes(length, per, run.n, run.idx);
        if (await this.#onThreadCall(run, data, out, allReduceOnThread, () => [bytes(), bytes()]))
          return out;
        const span = this.#span;
        if (span && takesThreadPath('allReduce', run.desc.algorithm, length)) {
          const b = bytes();
          const chain = chainAllReduce(span);
          await runOnThread(this.#comm.engine.thread!, span.local, run, data!, out, chain, b, b);
          return out;
        }
        for (let offset = 0; offset === 0 || offset < length; offset += per) {
          await round(run, {
            input: data!,
            output: out,
            offset,
            length: Math.min(per, length - offset),
          });
        }
        return out;
      },
    );
  }

  /** All-reduce of `length` elements already in this rank's region (the benchmark's raw path: no copy in or out). */
  allReduceInRegion(
    length: number,
    dtype: Dtype,
    options?: { op?: ReduceOp; algorithm?: AllReduceAlgorithm; async?: boolean },
  ): Work<void> {
    const o = checkOptions('allReduce', options);
    if (length > this.#comm.engine.regionElements)
      throw new Error(
        `allReduceInRegion: ${length} elements do not fit one region (${this.#comm.engine.regionElements})`,
      );
    this.#member('allReduce');
    const op = checkOp('allReduce', o.op);
    const { algorithm, round } = this.#allReduceRound(
      length,
      checkAlgorithm('allReduce', o.algorithm),
    );
    return this.#enqueue(
      'allReduce',
      { op, dtype, length, root: -1, algorithm },
      o.async,
      null,
      (run) => round(run, { input: null, output: null, offset: 0, length }),
    );
  }

  reduceScatter(input: Input, options?: unknown, output?: Payload): Work<Payload> {
    const o = checkOptions('reduceScatter', options);
    this.#member('reduceScatter');
    const op = checkOp('reduceScatter', o.op);
    const { dtype, length } = inputInfo(input);
    const chunk = splitChunk(length, this.size, this.info.indexOf(this.#rank))[1];
    const out = checkOutput('reduceScatter', output, dtype, chunk);
    return this.#enqueue(
      'reduceScatter',
      { op, dtype, length, root: -1, algorithm: null },
      o.async,
      input,
      async (run, data) => {
        const elements = this.#comm.engine.regionElements;
        const bytes = () => reduceScatterBytes(length, elements, run.n, run.idx);
        if (!(await this.#onThreadCall(run, data, out, reduceScatterOnThread, bytes)))
          await RUN.reduceScatter.direct.run(run, data!, out);
        return out;
      },
    );
  }

  allGather(input: Input, options?: unknown, output?: Payload): Work<Payload> {
    const o = checkOptions('allGather', options);
    this.#member('allGather');
    const { dtype, length } = inputInfo(input);
    const out = checkOutput('allGather', output, dtype, length * this.size);
    return this.#enqueue(
      'allGather',
      { ...rooted, dtype, length },
      o.async,
      input,
      async (run, data) => {
        const bytes = () => allGatherBytes(length, this.#comm.engine.regionElements, run.n);
        const span = this.#span;
        if (span && takesThreadPath('allGather', null, length)) {
          const b = bytes();
          const mates = this.#comm.engine.thread!;
          await runOnThread(mates, span.local, run, data!, out, spanningAllGather, b, b);
          return out;
        }
        if (
          !(await this.#onThreadCall(run, data, out, allGatherOnThread, () => [bytes(), bytes()]))
        )
          await RUN.allGather.direct.run(run, data!, out);
        return out;
      },
    );
  }

  /** `input` is read on src only; the others give their own tensor's size and dtype. */
  broadcast(input: Input, options: unknown, output?: Payload): Work<Payload> {
    const o = checkOptions('broadcast', options, ['src']);
    this.#member('broadcast');
    const src = this.#root('broadcast', 'src', o.src);
    const { dtype, length } = inputInfo(input);
    const out = checkOutput('broadcast', output, dtype, length);
    return this.#enqueue(
      'broadcast',
      { ...rooted, dtype, length, root: src },
      o.async,
      this.#rank === src ? input : null,
      async (run, data) => {
        const bytes = (): Counted =>
          this.#rank === src ? [(run.n - 1) * length * 4, 0] : [0, length * 4];
        if (!(await this.#onThreadCall(run, data, out, broadcastOnThread, bytes)))
          await RUN.broadcast.direct.run(run, data, out, src);
        return out;
      },
    );
  }

  reduce(input: Input, options: unknown, output?: Payload): Work<Payload> {
    const o = checkOptions('reduce', options, ['dst']);
    this.#member('reduce');
    const dst = this.#root('reduce', 'dst', o.dst);
    const op = checkOp('reduce', o.op);
    const { dtype, length } = inputInfo(input);
    const out = checkOutput('reduce', output, dtype, length);
    return this.#enqueue(
      'reduce',
      { op, dtype, length, root: dst, algorithm: null },
      o.async,
      input,
      async (run, data) => {
        const per = this.#comm.engine.regionElements;
        const bytes = () => reduceBytes(length, per, run.n, run.idx, this.#rank === dst);
        if (!(await this.#onThreadCall(run, data, out, reduceOnThread, bytes)))
          await RUN.reduce.direct.run(run, data!, out, dst);
        return out;
      },
    );
  }

  /** On src, `input` holds groupSize slices of `sliceLength`; every member receives its slice. */
  scatter(input: Input | null, sliceLength: number, dtype: Dtype, options: unknown): Work<Payload> {
    const o = checkOptions('scatter', options, ['src']);
    this.#member('scatter');
    const src = this.#root('scatter', 'src', o.src);
    const isSrc = this.#rank === src;
    if (isSrc) {
      if (!input) throw new Error('scatter: the src rank must pass the tensor to scatter');
      const { length } = inputInfo(input);
      if (length !== sliceLength * this.size)
        throw new Error(
          `scatter: src tensor has ${length} elements, expected ${this.size} slices of ${sliceLength}`,
        );
    }
    const out = allocate(dtype, sliceLength);
    return this.#enqueue(
      'scatter',
      { ...rooted, dtype, length: sliceLength, root: src },
      o.async,
      isSrc ? input : null,
      async (run, data) => {
        const L = sliceLength;
        const bytes = (): Counted => (isSrc ? [(run.n - 1) * L * 4, 0] : [0, L * 4]);
        if (!(await this.#onThreadCall(run, data, out, scatterOnThread, bytes)))
          await RUN.scatter.direct.run(run, data, out, src);
        return out;
      },
    );
  }

  gather(input: Input, options: unknown): Work<Payload | null> {
    const o = checkOptions('gather', options, ['dst']);
    this.#member('gather');
    const dst = this.#root('gather', 'dst', o.dst);
    const { dtype, length } = inputInfo(input);
    const out = this.#rank === dst ? allocate(dtype, length * this.size) : null;
    return this.#enqueue(
      'gather',
      { ...rooted, dtype, length, root: dst },
      o.async,
      input,
      async (run, data) => {
        const bytes = (): Counted => (out ? [0, (run.n - 1) * length * 4] : [length * 4, 0]);
        if (!(await this.#onThreadCall(run, data, out, gatherOnThread, bytes)))
          await RUN.gather.direct.run(run, data!, out, dst);
        return out;
      },
    );
  }

  barrier(options?: unknown): Work<void> {
    const o = checkOptions('barrier', options);
    this.#member('barrier');
    return this.#enqueue(
      'barrier',
      { ...rooted, dtype: 'float32', length: 0 },
      o.async,
      null,
      async (run) => {
        if (!(await this.#onThreadCall(run, null, null, barrierOnThread, () => [0, 0])))
          await RUN.barrier.direct.run(run);
      },
    );
  }

  /** Point-to-point always waits asynchronously: a rank may have sends and receives in flight at once. */
  send(input: Input, options: unknown): Work<void> {
    const o = checkOptions('send', options, ['dst']);
    const { engine, p2p } = this.#comm;
    const dst = checkPeer('send', 'dst', o.dst, engine.rank, engine.worldSize);
    engine.throwIfPoisoned();
    const call = engine.clock.issueCall();
    return new CallWork(p2p.send(input, dst, 'async', call), call.end);
  }

  recv(length: number, dtype: Dtype, options: unknown): Work<Payload> {
    const o = checkOptions('recv', options, ['src']);
    const { engine, p2p } = this.#comm;
    const src = checkPeer('recv', 'src', o.src, engine.rank, engine.worldSize);
    engine.throwIfPoisoned();
    const call = engine.clock.issueCall();
    return new CallWork(p2p.recv(length, dtype, src, 'async', call), call.end);
  }
}
