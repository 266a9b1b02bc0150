import { COLLECTIVE_KINDS, type ReduceOp } from '../contract/protocol.ts';
import type { CollectiveRun } from './collective-run.ts';
import type { GroupInfo } from './group-registry.ts';
import { H_WORLD_ID } from './layout.ts';
import { ringChunk, sharedView, splitChunk, type Payload } from './typed-views.ts';

/**
 * Collectives among logical ranks that share one thread (rank/rank-host.ts): when every member of a group lives
 * on the calling thread, the members hand their input arrays over by reference, the last one to arrive computes
 * the result once, and every member's output is filled — no copy through the shared memory, no wait on it.
 *
 * Everything else stays the engine's (process-group.ts runs this inside the same call as the engine path): each
 * member still publishes its descriptor, takes its sequence number, makes one progress step (so peers and the
 * deadlock check see it arrive), is timed by its clock and counted. While members wait for a thread-mate, the
 * first to arrive watches the missing ones with the engine's own wait (mismatch, deadlock, busy, spinning, exited
 * and timeout checks, each naming the ranks); a failure anywhere rejects every waiting member with the reason.
 *
 * Results are bit for bit the engine's: each element is reduced in the engine's order (two-shot all-reduce: group
 * order, then ÷ n for avg; reduce-scatter: the member's own slice first, then the others in group order), in
 * float32 (a Float32Array store rounds each step to float32, as the SIMD kernel does) or wrapping int32.
 * Counters record what the engine's algorithm would move, so commStats() do not depend on placement.
 *
 * A group that spans threads (the world at 1,024 ranks on 2 workers) runs an all-reduce as a chain in group order,
 * so the sum is still added in the engine's order: the first thread reduces its members' inputs, the next one
 * starts from that partial (read from the shared memory, float32 as stored, so nothing rounds differently) and
 * adds its own, …, the last one divides for avg and publishes the result, which every other thread copies to
 * its members. One member a thread waits on the engine (for the partial before it and for the result), with every
 * check a wait makes; its thread-mates wait on it. Every member still makes the same progress steps.
 * An all-gather across threads needs no order: each thread's members are copied into their regions at once, and
 * one member a thread waits for the rest. A reduce-scatter across threads stays on the engine (its order starts
 * from each member's own slice, which no chain in group order gives).
 * Broadcast, scatter, gather, reduce and the barrier take the path when every member is on the thread (the
 * rooted ones copy from, or into, the root's own array; reduce keeps the engine's chunk order); across threads
 * they stay on the engine.
 */

/**
 * Elements a member contributes up to which a call takes this path. Beyond it the engine is cheaper: its SIMD
 * kernel outruns this file's JavaScript loops once the data outweighs the per-rank cost of the shared memory
 * (tests/bench/thread-all-reduce.mjs: 16 ranks on a thread, 16,384 elements about even, 65,536 twice the CPU).
 */
export const THREAD_PATH_MAX_ELEMENTS = 32_768;

/** Kinds (and the all-reduce algorithm) and sizes that take this path: the same on every member of a call. */
export function takesThreadPath(kind: string, algorithm: string | null, length: number): boolean {
  if (length > THREAD_PATH_MAX_ELEMENTS) return false;
  return (kind === 'allReduce' && algorithm === 'two-shot') || ON_THREAD_KINDS.has(kind);
}

/** Every kind but all-reduce takes the path whatever its algorithm (each has one); the ring stays the engine's. */
const ON_THREAD_KINDS = new Set<string>(COLLECTIVE_KINDS.filter((k) => k !== 'allReduce'));

/** One member's part in a call: its run, its input (by reference) and its own output array. */
interface Entry {
  run: CollectiveRun;
  input: Payload;
  output: Payload;
}

/** One call of a group on this thread, from its first member's arrival until the last one's. */
interface Rendezvous {
  readonly entries: (Entry | undefined)[];
  arrived: number;
  settled: boolean;
  readonly done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** What the members of one group on this thread share: their calls in flight, by sequence number. */
class ThreadGroup {
  readonly calls = new Map<number, Rendezvous>();
}

/** The ranks a thread hosts in one world, and their groups' calls (module state: one per thread). */
class ThreadWorld {
  readonly ranks: ReadonlySet<number>;
  /** The ranks are one block (the placement's hostOf): a sorted group's members here are one run of it. */
  readonly block: boolean;
  readonly #groups = new Map<number, ThreadGroup>();

  constructor(ranks: readonly number[]) {
    this.ranks = new Set(ranks);
    const sorted = [...ranks].sort((a, b) => a - b);
    this.block = sorted.every((r, i) => r === sorted[0]! + i);
  }

  group(slot: number): ThreadGroup {
    let g = this.#groups.get(slot);
    if (!g) this.#groups.set(slot, (g = new ThreadGroup()));
    return g;
  }
}

/**
 * Worlds this thread takes part in, by the id createSharedWorld wrote in the header (each rank got its own copy
 * of the memory object) and the thread's first rank (a test plays several threads' ranks on one).
 */
const worlds = new Map<string, ThreadWorld>();

/** This thread's side of `words`' world, hosting `ranks` (every rank of the thread passes the same list). */
export function threadWorld(words: Int32Array, ranks: readonly number[]): ThreadWorld {
  const key = `${Atomics.load(words, H_WORLD_ID)}/${Math.min(...ranks)}`;
  let w = worlds.get(key);
  if (!w) worlds.set(key, (w = new ThreadWorld(ranks)));
  return w;
}

export type { ThreadWorld };

/** True when every member of `group` lives on this thread. */
export function allOnThread(thread: ThreadWorld, group: GroupInfo): boolean {
  return group.members.every((m) => thread.ranks.has(m));
}

/** A group as one thread's run of its members: who holds the partial before them, and who the result. */
export interface ThreadSpan {
  /** The members on this thread, in group order (one run of the group's order). */
  local: number[];
  /** The member just before this run (its thread publishes the partial in its region), or null for the first run. */
  before: number | null;
  /** The group's last member: its region holds the result. */
  last: number;
}

/**
 * This thread's run of `group`, when a chain can take it: the placement put the world's ranks on threads in
 * blocks (every thread's are, as this one's are) and group members are sorted, so each thread holds one run.
 */
export function spanOf(thread: ThreadWorld, group: GroupInfo): ThreadSpan | null {
  if (!thread.block) return null;
  const local = group.members.filter((m) => thread.ranks.has(m));
  if (local.length === 0) return null;
  const first = group.indexOf(local[0]!);
  return {
    local,
    before: first === 0 ? null : group.members[first - 1]!,
    last: group.members[group.members.length - 1]!,
  };
}

/** Fills every entry's output; runs once a call, on the last member of this thread to arrive. */
export type Compute = (entries: Entry[], run: CollectiveRun) => void | Promise<void>;

/**
 * Runs `run`'s call on this thread (see joinOnThread), then counts and traces it on this member as one step:
 * `sent` and `received` are what the engine's algorithm would have counted.
 */
export async function runOnThread(
  thread: ThreadWorld,
  local: readonly number[],
  run: CollectiveRun,
  input: Payload,
  output: Payload,
  compute: Compute,
  sent: number,
  received: number,
): Promise<void> {
  const e = run.engine;
  const start = e.env.now();
  await joinOnThread(thread, local, run, input, output, compute);
  e.count(run.desc.kind, sent, received, false);
  e.trace({
    kind: run.desc.kind,
    algorithm: 'in-thread',
    step: 0,
    bytes: received,
    start,
    end: e.env.now(),
    label: 'thread-mates by reference, no shared-memory copy',
  });
}

/**
 * Takes part in `run`'s call on this thread: makes this member's first progress step, hands its arrays over, and
 * resolves once the last of the `local` members (the group's members on this thread) ran `compute`.
 */
export async function joinOnThread(
  thread: ThreadWorld,
  local: readonly number[],
  run: CollectiveRun,
  input: Payload,
  output: Payload,
  compute: Compute,
): Promise<void> {
  const calls = thread.group(run.group.slot).calls;
  let r = calls.get(run.seq);
  const first = !r;
  if (!r) {
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // The last member gets its failure thrown; the others get it from `done` (none may wait on it: handled here).
    done.catch(() => undefined);
    r = { entries: new Array(local.length), arrived: 0, settled: false, done, resolve, reject };
    calls.set(run.seq, r);
  }
  const me = r;
  me.entries[local.indexOf(run.engine.rank)] = { run, input, output };
  me.arrived++;
  run.arrive(); // in the same synchronous block as the hand-over: a member counted as arrived has handed over
  if (me.arrived === local.length) {
    calls.delete(run.seq);
    try {
      // Every member here published its descriptor before arriving: compare before reading any array.
      for (const m of local) run.engine.compareWithPeer(run, m);
      await compute(me.entries as Entry[], run);
    } catch (error) {
      settle(me, error);
      throw error;
    }
    settle(me);
  } else if (first) void watch(me, run, local);
  return me.done;
}

function settle(r: Rendezvous, error?: unknown): void {
  if (r.settled) return;
  r.settled = true;
  if (error === undefined) r.resolve();
  else r.reject(error);
}

/**
 * The first member's watch over a call its thread-mates have not all reached: the engine's wait for their step,
 * with every check it makes while waiting. Should they all step in without handing over here (a member took the
 * engine's path: its call differs), the descriptors say how; a failure rejects every waiting member.
 */
async function watch(r: Rendezvous, run: CollectiveRun, local: readonly number[]): Promise<void> {
  try {
    // The members here only: their own group's slot and checks, a list of them as the members to wait for.
    await run.waitEach({ ...run.group, members: [...local] }, run.base + 1);
    // All handed over: the last of them computes, and its own waits make the engine's checks from here.
    if (r.settled || r.arrived === local.length) return;
    for (const m of local) run.engine.compareWithPeer(run, m);
    run.engine.fail(
      `${run.place}: the members on rank ${run.engine.rank}'s thread did not all take the in-thread path`,
    );
  } catch (error) {
    settle(r, error);
  }
}

/** dst[i] = dst[i] (op) src[i] over [from, to), as the kernel computes it (float32 or wrapping int32). */
function combine(op: ReduceOp, dst: Payload, src: Payload, from: number, to: number): void {
  if (dst instanceof Float32Array) combineF32(op, dst, src as Float32Array, from, to);
  else combineI32(op, dst, src as Int32Array, from, to);
}

// One loop per dtype, so each stays monomorphic (a loop over both array types ran several times slower).
function combineF32(op: ReduceOp, d: Float32Array, s: Float32Array, from: number, to: number) {
  if (op === 'sum' || op === 'avg') for (let i = from; i < to; i++) d[i] = d[i]! + s[i]!;
  else if (op === 'prod') for (let i = from; i < to; i++) d[i] = d[i]! * s[i]!;
  else if (op === 'max') for (let i = from; i < to; i++) d[i] = Math.max(d[i]!, s[i]!);
  else for (let i = from; i < to; i++) d[i] = Math.min(d[i]!, s[i]!);
}

function combineI32(op: ReduceOp, d: Int32Array, s: Int32Array, from: number, to: number) {
  if (op === 'sum' || op === 'avg') for (let i = from; i < to; i++) d[i] = d[i]! + s[i]!;
  else if (op === 'prod') for (let i = from; i < to; i++) d[i] = Math.imul(d[i]!, s[i]!);
  else if (op === 'max') for (let i = from; i < to; i++) d[i] = Math.max(d[i]!, s[i]!);
  else for (let i = from; i < to; i++) d[i] = Math.min(d[i]!, s[i]!);
}

/** avg's last step: a true float32 division, or int32's truncating one (the kernel's div_f32 / div_i32). */
function divide(dst: Payload, from: number, to: number, n: number): void {
  if (dst instanceof Int32Array) for (let i = from; i < to; i++) dst[i] = Math.trunc(dst[i]! / n);
  else for (let i = from; i < to; i++) dst[i] = dst[i]! / n;
}

/** Two-shot all-reduce: every element reduced across the members in group order (the fused kernel's order). */
export const allReduceOnThread: Compute = (entries, run) => {
  const op = run.desc.op!;
  const n = entries.length;
  const first = entries[0]!.output;
  first.set(entries[0]!.input);
  for (let k = 1; k < n; k++) combine(op, first, entries[k]!.input, 0, first.length);
  if (op === 'avg') divide(first, 0, first.length, n);
  for (let k = 1; k < n; k++) entries[k]!.output.set(first);
};

/**
 * Two-shot all-reduce's numbers for a group spanning threads, as a chain in group order (see the top of this
 * file): `span` is this thread's run. Two progress steps a round on every member here: this thread's partial is
 * in its last member's region (the last thread: the result), and this thread has the result.
 */
export function chainAllReduce(span: ThreadSpan): Compute {
  return async (entries, run) => {
    const e = run.engine;
    const op = run.desc.op!;
    const { n, dtype, base } = run;
    const L = run.desc.length;
    const per = e.regionElements;
    const tail = entries[entries.length - 1]!.run;
    const isLast = tail.engine.rank === span.last;
    const view = (rank: number, len: number) =>
      sharedView(e.bytes.buffer, dtype, run.region(rank), len);
    /** Waits for `peer`'s step `step` of round `j`, then checks its call is ours before reading its region. */
    const after = async (peer: number, target: number) => {
      await run.waitOn(run.group, peer, target);
      e.compareWithPeer(run, peer);
    };
    let j = 0;
    for (let off = 0; off === 0 || off < L; off += per, j++) {
      const len = Math.min(per, L - off);
      await tail.engine.guardRegion(tail);
      const acc = view(tail.engine.rank, len);
      let k = 0;
      if (span.before === null) acc.set(entries[k++]!.input.subarray(off, off + len));
      else {
        await after(span.before, base + 2 + 2 * j);
        acc.set(view(span.before, len));
      }
      for (; k < entries.length; k++)
        combine(op, acc, entries[k]!.input.subarray(off, off + len), 0, len);
      if (isLast && op === 'avg') divide(acc, 0, len, n);
      for (const m of entries) m.run.arrive();
      // Readers of the tail's region (the next thread; every thread, for the result) are done at the next step.
      tail.engine.recordRegionUse(run.group, base + 3 + 2 * j);
      let result = acc;
      if (!isLast) {
        await after(span.last, base + 2 + 2 * j);
        result = view(span.last, len);
      }
      for (const m of entries) m.output.set(result, off);
      for (const m of entries) m.run.arrive();
    }
  };
}

/**
 * All-gather for a group spanning threads (a copy: no order to keep). Each round, the last member here to arrive
 * writes every member's input here into that member's region (as each would on the engine), steps them all,
 * waits once for every other member's step, and fills the outputs from the inputs here and the regions there.
 */
export const spanningAllGather: Compute = async (entries, run) => {
  const e = run.engine;
  const { dtype, base } = run;
  const L = run.desc.length;
  const per = e.regionElements;
  const here = new Map(entries.map((m) => [m.run.engine.rank, m]));
  const members = run.group.members;
  const rounds = Math.max(1, Math.ceil(L / per));
  for (let j = 0; j < rounds; j++) {
    const off = j * per;
    const seg = Math.max(0, Math.min(per, L - off));
    for (const m of entries) await m.run.engine.guardRegion(m.run);
    for (const m of entries)
      sharedView(e.bytes.buffer, dtype, m.run.region(m.run.engine.rank), seg).set(
        m.input.subarray(off, off + seg),
      );
    for (const m of entries) m.run.arrive();
    await run.waitEach(run.group, base + 2 + 2 * j);
    for (const peer of members) if (!here.has(peer)) e.compareWithPeer(run, peer);
    const first = entries[0]!.output;
    members.forEach((peer, k) => {
      const mine = here.get(peer);
      first.set(
        mine
          ? mine.input.subarray(off, off + seg)
          : sharedView(e.bytes.buffer, dtype, run.region(peer), seg),
        k * L + off,
      );
    });
    for (const m of entries) {
      // Readers of each region here (every other member) are done once they pass the next step.
      m.run.engine.recordRegionUse(run.group, base + 3 + 2 * j);
      m.run.arrive();
    }
  }
  for (let k = 1; k < entries.length; k++) entries[k]!.output.set(entries[0]!.output);
};

/** Reduce-scatter: member r's slice (torch.tensor_split) is its own input first, then the others' in group order. */
export const reduceScatterOnThread: Compute = (entries, run) => {
  const op = run.desc.op!;
  const n = entries.length;
  const L = run.desc.length;
  entries.forEach((e, r) => {
    const [start, len] = splitChunk(L, n, r);
    const out = e.output;
    out.set(e.input.subarray(start, start + len));
    entries.forEach((q, k) => {
      if (k !== r) combine(op, out, q.input.subarray(start, start + len), 0, len);
    });
    if (op === 'avg') divide(out, 0, len, n);
  });
};

/** All-gather: member k's input is block k of every output. */
export const allGatherOnThread: Compute = (entries, run) => {
  const L = run.desc.length;
  const first = entries[0]!.output;
  entries.forEach((q, k) => first.set(q.input, k * L));
  for (let k = 1; k < entries.length; k++) entries[k]!.output.set(first); // one copy each, not n
};

/** The entry of the call's root (src or dst, a global rank) among entries in group order. */
const rootOf = (entries: Entry[], run: CollectiveRun) => entries[run.group.indexOf(run.desc.root)]!;

/** Broadcast: the source's input is every member's output (the source's own too, as the engine copies it). */
export const broadcastOnThread: Compute = (entries, run) => {
  const src = rootOf(entries, run).input;
  for (const m of entries) m.output.set(src);
};

/** Scatter: slice k of the source's input is member k's output. */
export const scatterOnThread: Compute = (entries, run) => {
  const src = rootOf(entries, run).input;
  const L = run.desc.length;
  entries.forEach((m, k) => m.output.set(src.subarray(k * L, (k + 1) * L)));
};

/** Gather: member k's input is block k of the destination's output (the others have none). */
export const gatherOnThread: Compute = (entries, run) => {
  const out = rootOf(entries, run).output;
  entries.forEach((q, k) => out.set(q.input, k * run.desc.length));
};

/**
 * Reduce in the engine's order (shared-memory-algorithms.ts reduceRounds): each round of a region is cut into n
 * chunks (ringChunk), member c reduces chunk c starting from its own input, then the others' in group order, ÷ n
 * for avg; the destination gets every chunk, every other member keeps its own input as its output.
 */
export const reduceOnThread: Compute = (entries, run) => {
  const op = run.desc.op!;
  const n = entries.length;
  const L = run.desc.length;
  const per = run.engine.regionElements;
  const dst = rootOf(entries, run);
  const out = dst.output;
  for (let off = 0; off < L; off += per) {
    const m = Math.min(per, L - off);
    for (let c = 0; c < n; c++) {
      const [s, l] = ringChunk(m, n, c);
      const from = off + s;
      out.set(entries[c]!.input.subarray(from, from + l), from);
      for (let k = 0; k < n; k++) if (k !== c) combine(op, out, entries[k]!.input, from, from + l);
      if (op === 'avg') divide(out, from, from + l, n);
    }
  }
  for (const m of entries) if (m !== dst) m.output.set(m.input);
};

/** A barrier's members only meet: nothing to compute once the last of them arrived. */
export const barrierOnThread: Compute = () => undefined;

/** Bytes the engine's reduce would count on member `idx` (the destination's or another's role), round by round. */
export function reduceBytes(
  length: number,
  per: number,
  n: number,
  idx: number,
  isDst: boolean,
): [number, number] {
  let sent = 0;
  let received = 0;
  const rounds = Math.max(1, Math.ceil(length / per));
  for (let j = 0; j < rounds; j++) {
    const m = Math.max(0, Math.min(per, length - j * per));
    const len = ringChunk(m, n, idx)[1];
    sent += (n - 1) * len * 4 + (isDst ? 0 : len * 4);
    received += (n - 1) * len * 4;
    if (isDst) for (let k = 0; k < n; k++) if (k !== idx) received += ringChunk(m, n, k)[1] * 4;
  }
  return [sent, received];
}

/** Bytes the engine's two-shot all-reduce would count on this member (a round per region, chunk `idx` of each). */
export function twoShotBytes(length: number, per: number, n: number, idx: number): number {
  let bytes = 0;
  for (let offset = 0; offset === 0 || offset < length; offset += per)
    bytes += (n - 1) * ringChunk(Math.min(per, length - offset), n, idx)[1] * 4;
  return bytes;
}

/** Bytes the engine's reduce-scatter would count on this member: [sent, received]. */
export function reduceScatterBytes(
  length: number,
  regionElements: number,
  n: number,
  idx: number,
): [number, number] {
  const w = Math.max(1, Math.floor(regionElements / n));
  const rounds = Math.max(1, Math.ceil(splitChunk(length, n, 0)[1] / w));
  const seg = (c: number, off: number) =>
    Math.max(0, Math.min(w, splitChunk(length, n, c)[1] - off));
  let sent = 0;
  let received = 0;
  for (let j = 0; j < rounds; j++) {
    for (let c = 0; c < n; c++) if (c !== idx) sent += seg(c, j * w) * 4;
    received += (n - 1) * seg(idx, j * w) * 4;
  }
  return [sent, received];
}

/** Bytes the engine's all-gather would count on this member (sent and received alike). */
export function allGatherBytes(length: number, regionElements: number, n: number): number {
  const rounds = Math.max(1, Math.ceil(length / regionElements));
  let bytes = 0;
  for (let j = 0; j < rounds; j++)
    bytes += (n - 1) * Math.max(0, Math.min(regionElements, length - j * regionElements)) * 4;
  return bytes;
}
