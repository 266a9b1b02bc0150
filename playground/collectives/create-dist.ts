import type * as tfNamespace from '@tensorflow/tfjs';
import type { TraceEvent } from '../cluster/protocol.ts';
import type { AllReduceAlgorithm, Dist, ProcessGroupHandle, ReduceOp, Work } from './dist-api.ts';
import type { GroupInfo } from './group-registry.ts';
import { loadReduceKernel } from './kernel/reduce-kernel.ts';
import { RankCollectives, type Input } from './rank-collectives.ts';
import type { SharedWorld } from './shared-world.ts';
import type { Payload } from './typed-views.ts';

type Tf = typeof tfNamespace;
type Tensor = tfNamespace.Tensor;

export interface RankEnv {
  tf: Tf;
  backend: 'webgpu' | 'wasm' | 'cpu';
  onTrace?: (e: TraceEvent) => void;
  now?: () => number;
}

export interface RankDist extends Dist {
  /** Bytes this rank sent and received, and calls made, per collective kind. */
  commStats(): Record<string, { sent: number; received: number; calls: number }>;
  /** Poisons the world: every waiter on every rank wakes with an error carrying `reason`. */
  abort(reason: string): void;
  /** The typed-array layer underneath (benchmarks and tests use it directly). */
  readonly collectives: RankCollectives;
}

/** A group as readers hold it; the registry slot stays private. */
class ProcessGroup implements ProcessGroupHandle {
  readonly ranks: readonly number[];
  readonly rank: number;
  readonly size: number;
  readonly info: GroupInfo;
  constructor(info: GroupInfo, me: number) {
    this.info = info;
    this.ranks = Object.freeze([...info.members]);
    this.rank = info.indexOf(me);
    this.size = info.members.length;
  }
}

function groupOf(g: ProcessGroupHandle | undefined): GroupInfo | undefined {
  if (g === undefined) return undefined;
  if (!(g instanceof ProcessGroup)) throw new Error('group: pass a group made by dist.newGroup(ranks)');
  return g.info;
}

function settle<T>(promise: Promise<T>, async: boolean | undefined): Promise<T> | Work<T> {
  if (!async) return promise;
  let completed = false;
  // A Work nobody waits on must not surface as an unhandled rejection; wait() still rethrows.
  promise.then(() => { completed = true; }, () => { completed = true; });
  return { wait: () => promise, isCompleted: () => completed };
}

function dtypeOfTensor(name: string, t: Tensor): 'float32' | 'int32' {
  if (t.dtype !== 'float32' && t.dtype !== 'int32') throw new Error(`${name}: only float32 and int32 tensors are supported, got ${t.dtype}`);
  return t.dtype;
}

function checkTensor(name: string, t: unknown, tf: Tf): asserts t is Tensor {
  if (!(t instanceof tf.Tensor)) throw new Error(`${name}: expected a tf.Tensor, got ${t === null ? 'null' : typeof t}`);
  if (t.isDisposed) throw new Error(`${name}: the tensor was already disposed`);
}

/** Joins the shared world as `rank` and returns its `dist`; call inside the rank worker. */
export async function createDist(world: SharedWorld, rank: number, env: RankEnv): Promise<RankDist> {
  const { tf } = env;
  const now = env.now ?? (() => performance.now());
  const c = new RankCollectives(world, rank, { now, onTrace: env.onTrace }, await loadReduceKernel(world.memory));
  // Reading starts at the call; the collective runs in call order once the data is there.
  const input = (name: string, t: unknown): { dtype: 'float32' | 'int32'; length: number; shape: number[]; data: Promise<Payload> } => {
    checkTensor(name, t, tf);
    const dtype = dtypeOfTensor(name, t);
    return { dtype, length: t.size, shape: t.shape, data: t.data() as Promise<Payload> };
  };
  const make = (data: Payload, shape: number[], dtype: 'float32' | 'int32'): Tensor => tf.tensor(data, shape, dtype);
  const base = (o: { group?: ProcessGroupHandle; async?: boolean } | undefined) => ({ group: groupOf(o?.group), async: o?.async });
  const options = (name: string, o: unknown, required: string[] = []): Record<string, unknown> => {
    if (o === undefined && required.length === 0) return {};
    if (typeof o !== 'object' || o === null) throw new Error(`${name}: options must be an object${required.length ? ` with ${required.join(', ')}` : ''}`);
    for (const k of required) if (!(k in o)) throw new Error(`${name}: missing option ${k}`);
    return o as Record<string, unknown>;
  };

  const dist = {
    rank,
    worldSize: world.worldSize,
    backend: env.backend,
    collectives: c,

    allReduce(t: Tensor, opts?: Record<string, unknown>) {
      const o = options('allReduce', opts);
      const i = input('allReduce', t);
      const p = c.allReduce(i, { ...base(o), op: o.op as ReduceOp, algorithm: o.algorithm as AllReduceAlgorithm });
      return settle(p.then((out) => make(out, i.shape, i.dtype)), o.async as boolean);
    },

    reduceScatter(t: Tensor, opts?: Record<string, unknown>) {
      const o = options('reduceScatter', opts);
      const i = input('reduceScatter', t);
      const p = c.reduceScatter(i, { ...base(o), op: o.op as ReduceOp });
      return settle(p.then((out) => make(out, [out.length], i.dtype)), o.async as boolean);
    },

    allGather(t: Tensor, opts?: Record<string, unknown>) {
      const o = options('allGather', opts);
      const i = input('allGather', t);
      const b = base(o);
      const n = b.group ? b.group.members.length : world.worldSize;
      const p = c.allGather(i, b);
      return settle(p.then((out) => make(out, [n, ...i.shape], i.dtype)), o.async as boolean);
    },

    broadcast(t: Tensor, opts: Record<string, unknown>) {
      const o = options('broadcast', opts, ['src']);
      const i = input('broadcast', t);
      const p = c.broadcast(i, { ...base(o), src: o.src as number });
      return settle(p.then((out) => make(out, i.shape, i.dtype)), o.async as boolean);
    },

    reduce(t: Tensor, opts: Record<string, unknown>) {
      const o = options('reduce', opts, ['dst']);
      const i = input('reduce', t);
      const p = c.reduce(i, { ...base(o), dst: o.dst as number, op: o.op as ReduceOp });
      return settle(p.then((out) => make(out, i.shape, i.dtype)), o.async as boolean);
    },

    scatter(t: Tensor | null, opts: Record<string, unknown>) {
      const o = options('scatter', opts, ['src']);
      const b = base(o);
      const n = b.group ? b.group.members.length : world.worldSize;
      let sliceShape: number[];
      let dtype: 'float32' | 'int32';
      let src: Input | null = null;
      if (rank === o.src) {
        const i = input('scatter', t);
        if (i.shape[0] !== n) throw new Error(`scatter: on src the tensor's leading axis must be the group size ${n}, got shape [${i.shape.join(', ')}]`);
        sliceShape = i.shape.slice(1);
        dtype = i.dtype;
        src = i;
      } else if (t !== null && t !== undefined) {
        checkTensor('scatter', t, tf);
        sliceShape = t.shape;
        dtype = dtypeOfTensor('scatter', t);
      } else {
        if (!Array.isArray(o.shape)) throw new Error('scatter: ranks other than src pass a tensor of the slice shape, or null with {shape}');
        sliceShape = o.shape as number[];
        dtype = o.dtype === 'int32' ? 'int32' : 'float32';
      }
      const sliceLength = sliceShape.reduce((a, b) => a * b, 1);
      const p = c.scatter(src, sliceLength, dtype, { ...b, src: o.src as number });
      return settle(p.then((out) => make(out, sliceShape, dtype)), o.async as boolean);
    },

    gather(t: Tensor, opts: Record<string, unknown>) {
      const o = options('gather', opts, ['dst']);
      const i = input('gather', t);
      const b = base(o);
      const n = b.group ? b.group.members.length : world.worldSize;
      const p = c.gather(i, { ...b, dst: o.dst as number });
      return settle(p.then((out) => (out ? make(out, [n, ...i.shape], i.dtype) : null)), o.async as boolean);
    },

    barrier(opts?: Record<string, unknown>) {
      const o = options('barrier', opts);
      return settle(c.barrier(base(o)), o.async as boolean);
    },

    send(t: Tensor, opts: Record<string, unknown>) {
      const o = options('send', opts, ['dst']);
      const i = input('send', t);
      return settle(c.send(i, { dst: o.dst as number }), o.async as boolean);
    },

    recv(shape: number[], opts: Record<string, unknown>) {
      const o = options('recv', opts, ['src']);
      if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) throw new Error(`recv: shape must be an array of non-negative integers, got ${JSON.stringify(shape)}`);
      if (o.dtype !== undefined && o.dtype !== 'float32' && o.dtype !== 'int32') throw new Error(`recv: dtype must be float32 or int32, got ${JSON.stringify(o.dtype)}`);
      const dtype = o.dtype === 'int32' ? 'int32' : 'float32';
      const length = shape.reduce((a, b) => a * b, 1);
      return settle(c.recv(length, dtype, { src: o.src as number }).then((out) => make(out, shape, dtype)), o.async as boolean);
    },

    newGroup(ranks: number[]): ProcessGroupHandle {
      return new ProcessGroup(c.newGroup(ranks), rank);
    },

    commStats() {
      return structuredClone(c.engine.stats);
    },

    abort(reason: string) {
      c.abort(reason);
    },
  };
  return dist as unknown as RankDist;
}
