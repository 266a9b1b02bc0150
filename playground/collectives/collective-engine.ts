import type { CommKind, TraceEvent } from '../contract/protocol.ts';
import { CallBoard } from './call-board.ts';
import { descriptorDifferences, type CallDescriptor } from './call-descriptor.ts';
import { CommCounters } from './comm-stats.ts';
import { describeRank, groupName, livenessPhrase, mismatchMessage } from './failure-messages.ts';
import { groupInfo, registerGroup, type GroupInfo } from './group-registry.ts';
import { instantiateReduceKernel, type ReduceKernel } from './kernel/reduce-kernel.ts';
import {
  arrivalIndex,
  arrivedIndex,
  H_MAGIC,
  H_WORLD,
  MAGIC,
  P_COUNT,
  progressIndex,
  regionOffset,
  scratchOffset,
} from './layout.ts';
import { abortSharedWorld, type SharedWorld } from './shared-world.ts';
import { WorldSync, type WaitMode } from './world-sync.ts';
import { CollectiveRun, type GroupSequence } from './collective-run.ts';
import { PeerLiveness } from './peer-liveness.ts';
import { REAL_TIME_CLOCK, type RankClock } from '../simulation/rank-clock.ts';
import { threadWorld, type ThreadWorld } from './thread-collectives.ts';

export interface EngineEnv {
  now: () => number;
  onTrace?: (e: TraceEvent) => void;
  /** A warning for the reader that is not an error (e.g. a long wait for a busy peer). */
  onNotice?: (text: string) => void;
  /**
   * This rank shares its thread with other logical ranks (rank/rank-host.ts): it must never block the thread
   * (Atomics.wait would stop the peers it waits for), so every wait yields to the event loop.
   */
  hosted?: boolean;
  /**
   * Every rank this thread hosts in this world (the placement's), for thread-collectives.ts: given to every rank
   * of a world whose threads host several ranks (a thread of one rank too, so every member takes the same path).
   */
  threadRanks?: readonly number[];
}

/**
 * One rank's side of the shared-memory collectives: progress counters, the WAR guard on this rank's data
 * region, and loud failure. Internal to the runtime: nothing here is reachable from a reader's `dist`.
 */
export class CollectiveEngine {
  readonly rank: number;
  readonly worldSize: number;
  readonly world: SharedWorld;
  readonly words: Int32Array;
  readonly bytes: Uint8Array;
  readonly kernel: ReduceKernel;
  readonly sync: WorldSync;
  readonly board: CallBoard;
  readonly env: EngineEnv;
  readonly worldGroup: GroupInfo;
  /** Byte address of this rank's scratch table in the shared memory (addresses for the fused kernel). */
  readonly scratch: number;
  readonly counters = new CommCounters();
  /** Which peers are busy computing (alive) rather than stuck; this rank's own heartbeat runs while the engine lives. */
  readonly liveness: PeerLiveness;
  readonly stopHeartbeat: () => void;
  /** Sequence number of this rank's next call in a group slot (the process groups own the numbers). */
  readonly nextSeq: (slot: number) => number;
  /** This thread's side of the world when it hosts several of its ranks (thread-collectives.ts), else null. */
  readonly thread: ThreadWorld | null;
  /** The clock every call is timed with: real time, or a simulated cluster's (set once by joinWorld). */
  clock: RankClock = REAL_TIME_CLOCK;
  readonly #arrivals: Float64Array;
  /** Readers of this rank's region from its last use: they must be done before it is overwritten. */
  #lastRegionUse: { group: GroupInfo; target: number } | null = null;

  constructor(
    world: SharedWorld,
    rank: number,
    env: EngineEnv,
    nextSeq: (slot: number) => number,
    kernel?: ReduceKernel,
  ) {
    if (!Number.isInteger(rank) || rank < 0 || rank >= world.worldSize)
      throw new Error(`rank ${rank} is outside the world (0..${world.worldSize - 1})`);
    this.rank = rank;
    this.worldSize = world.worldSize;
    this.world = world;
    this.words = new Int32Array(world.memory.buffer);
    if (this.words[H_MAGIC] !== MAGIC || this.words[H_WORLD] !== world.worldSize)
      throw new Error(
        'joinWorld: the world was not made by createSharedWorld (or its memory was not shared with this rank)',
      );
    this.bytes = new Uint8Array(world.memory.buffer);
    this.#arrivals = new Float64Array(world.memory.buffer);
    this.kernel = kernel ?? instantiateReduceKernel(world.memory);
    this.env = env;
    this.nextSeq = nextSeq;
    this.sync = new WorldSync(
      world.memory,
      !env.hosted && world.worldSize <= world.hardwareConcurrency,
      env.now,
    );
    this.board = new CallBoard(this.words, world.layout, world.worldSize);
    this.liveness = new PeerLiveness(this.board, env.now, (r) => this.hasExited(r));
    this.stopHeartbeat = PeerLiveness.start(this.board, rank);
    this.worldGroup = groupInfo(
      0,
      Array.from({ length: world.worldSize }, (_, i) => i),
    );
    this.scratch = scratchOffset(world.layout, rank);
    // Given to every rank of a world that shares threads (one a thread too), so all take the same paths.
    const mates = env.threadRanks;
    this.thread = mates?.includes(rank) ? threadWorld(this.words, mates) : null;
  }

  /** True when this rank shares its thread with other logical ranks: its waits must yield (see EngineEnv.hosted). */
  get hosted(): boolean {
    return this.env.hosted === true;
  }

  /** Publishes this rank's virtual arrival at call `seq` of group `slot`; call before `begin` publishes the descriptor. */
  writeArrival(slot: number, seq: number, seconds: number): void {
    this.#arrivals[arrivalIndex(this.world.layout, this.worldSize, slot, this.rank, seq)] = seconds;
  }

  /** A peer's virtual arrival, readable once its descriptor for `seq` is published. */
  readArrival(slot: number, peer: number, seq: number): number {
    return this.#arrivals[arrivalIndex(this.world.layout, this.worldSize, slot, peer, seq)]!;
  }

  /** Marks this rank dead (a planned fault in a simulated run) and wakes nobody: peers find out as a timeout. */
  markDead(): void {
    this.board.markDead(this.rank);
  }

  /** Marks this rank's program as ended: a peer still waiting for it is told at once that it exited. */
  markExited(): void {
    this.board.markExited(this.rank);
  }

  hasExited(rank: number): boolean {
    return this.board.hasExited(rank);
  }

  /** Ranks marked dead. */
  deadRanks(): number[] {
    const out: number[] = [];
    if (!this.board.anyDead()) return out; // a wait looks here at every check: not 1,024 blocks each time
    for (let r = 0; r < this.worldSize; r++) if (this.board.isDead(r)) out.push(r);
    return out;
  }

  newGroup(ranks: number[]): GroupInfo {
    return registerGroup(this.words, this.world.layout.groupsOffset >> 2, this.worldSize, ranks);
  }

  regionOffset(rank: number): number {
    return regionOffset(this.world.layout, rank);
  }

  /** Elements of a 4-byte dtype one region holds. */
  get regionElements(): number {
    return this.world.layout.regionBytes >> 2;
  }

  /** Int32 index of the arrival count of the group in registry slot `slot` (layout.ts arrivedIndex). */
  arrivedIndex(slot: number): number {
    return arrivedIndex(this.world.layout, slot);
  }

  progressIndex(slot: number, rank: number): number {
    return progressIndex(this.world.layout, this.worldSize, slot, rank) + P_COUNT;
  }

  count(kind: CommKind, sent: number, received: number, call: boolean): void {
    this.counters.count(kind, sent, received, call);
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
    return groupName(slot, this.board.members(slot));
  }

  /** What `rank` last called, from its call block, for error messages. */
  describeRank(rank: number): string {
    const call = this.board.callOf(rank);
    return `${describeRank(rank, call, this.groupName(call.slot))}${livenessPhrase(this.liveness.state(rank))}`;
  }

  /** Starts a collective: takes the group's next sequence number and publishes the call descriptor. */
  begin(
    group: GroupInfo,
    sequence: GroupSequence,
    desc: CallDescriptor,
    mode: WaitMode,
  ): CollectiveRun {
    this.throwIfPoisoned();
    const seq = sequence.seq++;
    this.board.publish(this.rank, group.slot, seq, desc);
    return new CollectiveRun(this, group, desc, mode, seq, sequence.steps);
  }

  /** Ends a collective: its steps become the group's new base. */
  finish(run: CollectiveRun, sequence: GroupSequence): void {
    sequence.steps = run.base + run.steps;
    this.board.finished(this.rank);
  }

  recordRegionUse(group: GroupInfo, target: number): void {
    this.#lastRegionUse = { group, target };
  }

  /** Before overwriting this rank's region: wait until every reader of its previous contents is done. */
  guardRegion(run: CollectiveRun): void | Promise<void> {
    const use = this.#lastRegionUse;
    if (!use) return;
    const w = run.waitEach(use.group, use.target);
    if (w)
      return w.then(() => {
        this.#lastRegionUse = null;
      });
    this.#lastRegionUse = null;
  }

  /**
   * Compares the descriptor `peer` published for this call with ours; poisons the world on a mismatch.
   * Returns false while the peer has not yet published it (compare again later).
   */
  compareWithPeer(run: CollectiveRun, peer: number): boolean {
    const same = this.board.samePeerCall(run.group.slot, this.rank, peer, run.seq);
    if (same !== false) return same !== 'not-yet';
    const theirs = this.board.peerCall(run.group.slot, peer, run.seq);
    if (theirs === 'not-yet') return false;
    if (theirs === 'passed') return true;
    const diff = descriptorDifferences(run.desc, theirs);
    if (diff.length === 0) return true;
    this.fail(
      mismatchMessage(this.groupName(run.group), run.seq, this.rank, run.desc, peer, theirs, diff),
    );
  }

  notice(text: string): void {
    this.env.onNotice?.(text);
  }

  trace(e: Omit<TraceEvent, 'rank'>): void {
    this.env.onTrace?.({ rank: this.rank, ...e });
  }
}
