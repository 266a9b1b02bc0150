import type { TraceEvent } from '../cluster/protocol.ts';
import { decodeDescriptor, describeCall, descriptorDifferences, encodeDescriptor, type CallDescriptor, type Dtype } from './call-descriptor.ts';
import { groupInfo, registerGroup, type GroupInfo } from './group-registry.ts';
import { instantiateReduceKernel, type ReduceKernel } from './kernel/reduce-kernel.ts';
import { C_DESC, C_GROUP, C_SEQ, C_STATE, callIndex, DESC_SLOTS, DESC_WORDS, H_MAGIC, H_WORLD, MAGIC, P_COUNT, P_DESC0, progressIndex, regionOffset, scratchOffset } from './layout.ts';
import { abortSharedWorld, type SharedWorld } from './shared-world.ts';
import { WorldSync, type WaitMode } from './world-sync.ts';

export interface EngineEnv {
  now: () => number;
  onTrace?: (e: TraceEvent) => void;
}

export interface CommCounter { sent: number; received: number; calls: number }

/** How long a peer may sit in another group's call that needs us before we call it a deadlock. */
const DEADLOCK_CONFIRM_MS = 500;

/**
 * One rank's side of the shared-memory collectives: sequence numbers per group, progress counters,
 * call descriptors, the WAR guard on this rank's data region, and loud failure.
 */
export class CollectiveEngine {
  readonly rank: number;
  readonly worldSize: number;
  readonly world: SharedWorld;
  readonly words: Int32Array;
  readonly bytes: Uint8Array;
  readonly kernel: ReduceKernel;
  readonly sync: WorldSync;
  readonly env: EngineEnv;
  readonly worldGroup: GroupInfo;
  /** Byte address of this rank's scratch table in the shared memory (addresses for the fused kernel). */
  readonly scratch: number;
  readonly stats: Record<string, CommCounter> = {};
  /** Per group slot: calls started and progress steps completed by every member so far. */
  private readonly groupProgress = new Map<number, { seq: number; steps: number }>();
  /** Readers of this rank's region from its last use: they must be done before it is overwritten. */
  private lastRegionUse: { group: GroupInfo; target: number } | null = null;

  constructor(world: SharedWorld, rank: number, env: EngineEnv, kernel?: ReduceKernel) {
    if (!Number.isInteger(rank) || rank < 0 || rank >= world.worldSize) throw new Error(`rank ${rank} is outside the world (0..${world.worldSize - 1})`);
    this.rank = rank;
    this.worldSize = world.worldSize;
    this.world = world;
    this.words = new Int32Array(world.memory.buffer);
    if (this.words[H_MAGIC] !== MAGIC || this.words[H_WORLD] !== world.worldSize) throw new Error('createDist: the world was not made by createSharedWorld (or its memory was not shared with this rank)');
    this.bytes = new Uint8Array(world.memory.buffer);
    this.kernel = kernel ?? instantiateReduceKernel(world.memory);
    this.env = env;
    this.sync = new WorldSync(world.memory, world.worldSize <= world.hardwareConcurrency, env.now);
    this.worldGroup = groupInfo(0, Array.from({ length: world.worldSize }, (_, i) => i));
    this.scratch = scratchOffset(world.layout, rank);
  }

  newGroup(ranks: number[]): GroupInfo {
    return registerGroup(this.words, this.world.layout.groupsOffset >> 2, this.worldSize, ranks);
  }

  regionOffset(rank: number): number {
    return regionOffset(this.world.layout, rank);
  }

  /** Elements of `dtype` (4 bytes) one region holds. */
  get regionElements(): number {
    return this.world.layout.regionBytes >> 2;
  }

  progressIndex(slot: number, rank: number): number {
    return progressIndex(this.world.layout, this.worldSize, slot, rank) + P_COUNT;
  }

  count(kind: string, sent: number, received: number, call: boolean): void {
    const c = (this.stats[kind] ??= { sent: 0, received: 0, calls: 0 });
    c.sent += sent;
    c.received += received;
    if (call) c.calls++;
  }

  throwIfPoisoned(): void {
    const reason = this.sync.poisonReason();
    if (reason !== null) throw new Error(reason);
  }

  /** Poisons the world: every waiter on every rank wakes and throws `reason`. */
  abort(reason: string): void {
    abortSharedWorld(this.world, reason);
  }

  /** Poisons the world with `message` and throws it here. */
  fail(message: string): never {
    this.abort(message);
    throw new Error(this.sync.poisonReason() ?? message);
  }

  groupName(g: GroupInfo | number): string {
    const slot = typeof g === 'number' ? g : g.slot;
    if (slot === 0) return 'the world group';
    const mask = Atomics.load(this.words, (this.world.layout.groupsOffset >> 2) + slot);
    const members: number[] = [];
    for (let r = 0; r < this.worldSize; r++) if (mask & (1 << r)) members.push(r);
    return `group [${members.join(', ')}]`;
  }

  /** What `rank` last called, from its call block, for error messages. */
  describeRank(rank: number): string {
    const at = callIndex(this.world.layout, rank);
    const state = Atomics.load(this.words, at + C_STATE);
    if (state === 0) return `rank ${rank} has made no collective call yet`;
    const desc = decodeDescriptor(this.words, at + C_DESC);
    const where = `${describeCall(desc)} on ${this.groupName(Atomics.load(this.words, at + C_GROUP))} (call #${Atomics.load(this.words, at + C_SEQ)})`;
    return state === 1 ? `rank ${rank} is inside ${where}` : `rank ${rank} last called ${where}, which it finished`;
  }

  /** Starts a collective: takes the group's next sequence number and publishes the call descriptor. */
  begin(group: GroupInfo, desc: CallDescriptor, mode: WaitMode): CollectiveRun {
    this.throwIfPoisoned();
    const progress = this.groupProgress.get(group.slot) ?? { seq: 0, steps: 0 };
    this.groupProgress.set(group.slot, progress);
    const seq = progress.seq++;
    // Seqlock: invalidate, write, then publish the sequence number, so a reader never takes a torn descriptor.
    const slotAt = progressIndex(this.world.layout, this.worldSize, group.slot, this.rank) + P_DESC0 + (seq % DESC_SLOTS) * DESC_WORDS;
    Atomics.store(this.words, slotAt, 0);
    encodeDescriptor(this.words, slotAt + 1, desc);
    Atomics.store(this.words, slotAt, seq + 1);
    const call = callIndex(this.world.layout, this.rank);
    encodeDescriptor(this.words, call + C_DESC, desc);
    Atomics.store(this.words, call + C_GROUP, group.slot);
    Atomics.store(this.words, call + C_SEQ, seq);
    Atomics.store(this.words, call + C_STATE, 1);
    return new CollectiveRun(this, group, desc, mode, seq, progress.steps);
  }

  /** Ends a collective: its steps become the group's new base. */
  finish(run: CollectiveRun): void {
    this.groupProgress.get(run.group.slot)!.steps = run.base + run.steps;
    Atomics.store(this.words, callIndex(this.world.layout, this.rank) + C_STATE, 2);
  }

  /** Sequence number of the next call this rank will make in group `slot`. */
  nextSeq(slot: number): number {
    return this.groupProgress.get(slot)?.seq ?? 0;
  }

  recordRegionUse(group: GroupInfo, target: number): void {
    this.lastRegionUse = { group, target };
  }

  /** Before overwriting this rank's region: wait until every reader of its previous contents is done. */
  guardRegion(run: CollectiveRun): void | Promise<void> {
    const use = this.lastRegionUse;
    if (!use) return;
    const pending: number[] = use.group.members.filter((m) => m !== this.rank && this.sync.value(this.progressIndex(use.group.slot, m)) < use.target);
    if (pending.length === 0) { this.lastRegionUse = null; return; }
    const waitAll = async () => {
      for (const m of pending) await run.waitOn(use.group, m, use.target);
      this.lastRegionUse = null;
    };
    if (run.mode === 'async') return waitAll();
    for (const m of pending) run.waitOn(use.group, m, use.target);
    this.lastRegionUse = null;
  }

  /** Compares the descriptor `peer` published for call `seq` in `group` with ours; poisons the world on a mismatch. */
  /** Returns false while the peer has not yet published this call (compare again later). */
  compareWithPeer(run: CollectiveRun, peer: number): boolean {
    const at = progressIndex(this.world.layout, this.worldSize, run.group.slot, peer) + P_DESC0 + (run.seq % DESC_SLOTS) * DESC_WORDS;
    const published = Atomics.load(this.words, at);
    if (published !== run.seq + 1) return published > run.seq + 1;
    const theirs = decodeDescriptor(this.words, at + 1);
    // The peer ran DESC_SLOTS calls ahead and reused the slot while we read: it cannot be compared, not a mismatch.
    if (Atomics.load(this.words, at) !== run.seq + 1) return true;
    const diff = descriptorDifferences(run.desc, theirs);
    if (diff.length === 0) return true;
    this.fail(`Mismatched collectives on ${this.groupName(run.group)} at call #${run.seq}: rank ${this.rank} called ${describeCall(run.desc)} but rank ${peer} called ${describeCall(theirs)} (they differ in ${diff.join(', ')}). Every rank of a group must make the same collective calls in the same order.`);
  }

  /** Detects the one deadlock a peer can show us: it sits in a call of another group we belong to but have not reached. */
  deadlockWith(run: CollectiveRun, peer: number): string | null {
    const at = callIndex(this.world.layout, peer);
    if (Atomics.load(this.words, at + C_STATE) !== 1) return null;
    const slot = Atomics.load(this.words, at + C_GROUP);
    if (slot === run.group.slot) return null;
    const mask = Atomics.load(this.words, (this.world.layout.groupsOffset >> 2) + slot);
    if (!(mask & (1 << this.rank))) return null;
    const theirSeq = Atomics.load(this.words, at + C_SEQ);
    if (this.nextSeq(slot) > theirSeq) return null;
    return `${slot}:${theirSeq}`;
  }

  trace(e: Omit<TraceEvent, 'rank'>): void {
    this.env.onTrace?.({ rank: this.rank, ...e });
  }
}

/** One collective call in flight on this rank: its group, sequence number and the progress steps it has made. */
export class CollectiveRun {
  readonly n: number;
  readonly idx: number;
  steps = 0;
  /** Steps made before the current round; `until` counts from here. */
  private roundBase = 0;
  private readonly compared = new Set<number>();
  private readonly myIndex: number;

  readonly engine: CollectiveEngine;
  readonly group: GroupInfo;
  readonly desc: CallDescriptor;
  readonly mode: WaitMode;
  readonly seq: number;
  readonly base: number;

  constructor(engine: CollectiveEngine, group: GroupInfo, desc: CallDescriptor, mode: WaitMode, seq: number, base: number) {
    this.engine = engine;
    this.group = group;
    this.desc = desc;
    this.mode = mode;
    this.seq = seq;
    this.base = base;
    this.n = group.members.length;
    this.idx = group.indexOf(engine.rank);
    this.myIndex = engine.progressIndex(group.slot, engine.rank);
  }

  get dtype(): Dtype {
    return this.desc.dtype;
  }

  /** Global rank of the member `k` places after this one in the group's ring. */
  member(offset: number): number {
    return this.group.members[(((this.idx + offset) % this.n) + this.n) % this.n]!;
  }

  region(rank: number): number {
    return this.engine.regionOffset(rank);
  }

  /** Announces that this rank finished one more step of the call. */
  arrive(): void {
    this.steps++;
    this.engine.sync.bump(this.myIndex);
  }

  /** Large payloads go in rounds that fit a region; step numbers in `until` are relative to the round. */
  startRound(): void {
    this.roundBase = this.steps;
  }

  /** Waits until `peer` has completed `stepsDone` steps of the current round. */
  until(peer: number, stepsDone: number): void | Promise<void> {
    const r = this.waitOn(this.group, peer, this.base + this.roundBase + stepsDone);
    if (r) return r.then(() => this.verify(peer));
    this.verify(peer);
  }

  /** Waits until every other member has completed `stepsDone` steps. */
  untilAll(stepsDone: number): void | Promise<void> {
    const others = this.group.members.filter((m) => m !== this.engine.rank);
    if (this.mode === 'block') {
      for (const m of others) this.until(m, stepsDone);
      return;
    }
    return (async () => { for (const m of others) await this.until(m, stepsDone); })();
  }

  /** Declares that this round wrote this rank's region: peers read it until they reach the current step. */
  endRound(): void {
    this.engine.recordRegionUse(this.group, this.base + this.steps);
  }

  private verify(peer: number): void {
    if (this.compared.has(peer)) return;
    if (this.engine.compareWithPeer(this, peer)) this.compared.add(peer);
  }

  /** Checks every member that has already published this call (ranks that never wait still catch mismatches). */
  verifyArrived(): void {
    for (const m of this.group.members) if (m !== this.engine.rank) this.verify(m);
  }

  waitOn(group: GroupInfo, peer: number, target: number): void | Promise<void> {
    const e = this.engine;
    const index = e.progressIndex(group.slot, peer);
    let suspect: string | null = null;
    let suspectSince = 0;
    const check = (stalledMs: number) => {
      e.throwIfPoisoned();
      if (group === this.group && stalledMs > 0) this.verify(peer);
      const dl = e.deadlockWith(this, peer);
      if (dl === null) suspect = null;
      else if (dl !== suspect) { suspect = dl; suspectSince = e.env.now(); }
      else if (e.env.now() - suspectSince >= DEADLOCK_CONFIRM_MS) {
        e.fail(`Deadlock: rank ${e.rank} is in ${describeCall(this.desc)} on ${e.groupName(this.group)} (call #${this.seq}) waiting for rank ${peer}, but ${e.describeRank(peer)}, which needs rank ${e.rank} first. The ranks made collective calls in different orders.`);
      }
      if (stalledMs >= e.world.watchdogMs) this.watchdog(group, target, peer);
    };
    return this.mode === 'block' ? e.sync.waitBlocking(index, target, check) : e.sync.waitAsync(index, target, check);
  }

  private watchdog(group: GroupInfo, target: number, peer: number): void {
    const e = this.engine;
    const behind = group.members.filter((m) => m !== e.rank && e.sync.value(e.progressIndex(group.slot, m)) < target);
    if (!behind.includes(peer)) behind.unshift(peer);
    const seconds = (e.world.watchdogMs / 1000).toFixed(1);
    e.fail(`Collective timed out: rank ${e.rank} waited ${seconds} s in ${describeCall(this.desc)} on ${e.groupName(this.group)} (call #${this.seq}) with no progress. Not arrived: ${behind.map((r) => `rank ${r}`).join(', ')}. ${behind.map((r) => e.describeRank(r)).join('; ')}.`);
  }
}
