import { decodeDescriptor, encodeDescriptor, type CallDescriptor } from './call-descriptor.ts';
import { groupMembers } from './group-registry.ts';
import {
  C_DESC,
  C_GROUP,
  C_HEARTBEAT,
  C_KERNELS,
  C_AWAITING,
  C_TURN,
  C_HOLDER,
  H_DEAD,
  C_DEAD,
  C_END_DIED,
  C_END_EXITED,
  C_RECV_FROM,
  C_SEQ,
  C_STATE,
  callIndex,
  DESC_SLOTS,
  DESC_WORDS,
  P_DESC0,
  progressIndex,
  type WorldLayout,
} from './layout.ts';

/** What a rank last did, as its call block says: `state` 0 no call yet, 1 inside a collective, 2 finished it. */
export interface PublishedCall {
  state: 0 | 1 | 2;
  desc: CallDescriptor;
  slot: number;
  seq: number;
}

/**
 * The wire protocol of calls in the shared memory: each rank publishes the descriptor of every call it
 * starts (per group, by sequence number) and what it is doing now; peers read both to check calls match
 * and to name a stuck rank. A rank writes only its own blocks.
 */
/** A rank blocked in a point-to-point call: on which peer, and whether in a send (else a recv). */
export interface PeerWait {
  peer: number;
  sending: boolean;
}

export class CallBoard {
  readonly #words: Int32Array;
  readonly #layout: WorldLayout;
  readonly #worldSize: number;

  constructor(words: Int32Array, layout: WorldLayout, worldSize: number) {
    this.#words = words;
    this.#layout = layout;
    this.#worldSize = worldSize;
  }

  #slotAt(slot: number, rank: number, seq: number): number {
    return (
      progressIndex(this.#layout, this.#worldSize, slot, rank) +
      P_DESC0 +
      (seq % DESC_SLOTS) * DESC_WORDS
    );
  }

  /** Publishes `rank`'s call `seq` in group `slot` and marks the rank as inside it. */
  publish(rank: number, slot: number, seq: number, desc: CallDescriptor): void {
    const w = this.#words;
    // Seqlock: invalidate, write, then publish the sequence number, so a reader never takes a torn descriptor.
    const at = this.#slotAt(slot, rank, seq);
    Atomics.store(w, at, 0);
    encodeDescriptor(w, at + 1, desc);
    Atomics.store(w, at, seq + 1);
    const call = callIndex(this.#layout, rank);
    encodeDescriptor(w, call + C_DESC, desc);
    Atomics.store(w, call + C_GROUP, slot);
    Atomics.store(w, call + C_SEQ, seq);
    Atomics.store(w, call + C_STATE, 1);
  }

  finished(rank: number): void {
    Atomics.store(this.#words, callIndex(this.#layout, rank) + C_STATE, 2);
  }

  /**
   * `peer`'s descriptor for call `seq` of group `slot`: 'not-yet' while it has not published it, 'passed'
   * when it ran so far ahead that the slot was reused (it cannot be compared, which is not a mismatch).
   */
  peerCall(slot: number, peer: number, seq: number): CallDescriptor | 'not-yet' | 'passed' {
    const at = this.#slotAt(slot, peer, seq);
    const published = Atomics.load(this.#words, at);
    if (published !== seq + 1) return published > seq + 1 ? 'passed' : 'not-yet';
    const desc = decodeDescriptor(this.#words, at + 1);
    return Atomics.load(this.#words, at) === seq + 1 ? desc : 'passed';
  }

  /**
   * Whether `peer`'s call `seq` of group `slot` is the one `me` published there, word for word (no decoding:
   * a rank of a large world compares up to 1,023 peers a call); 'not-yet' and 'passed' as in peerCall.
   */
  samePeerCall(
    slot: number,
    me: number,
    peer: number,
    seq: number,
  ): boolean | 'not-yet' | 'passed' {
    const w = this.#words;
    const at = this.#slotAt(slot, peer, seq);
    const published = Atomics.load(w, at);
    if (published !== seq + 1) return published > seq + 1 ? 'passed' : 'not-yet';
    const mine = this.#slotAt(slot, me, seq);
    for (let i = 1; i < DESC_WORDS; i++)
      if (Atomics.load(w, at + i) !== Atomics.load(w, mine + i)) return false;
    return Atomics.load(w, at) === seq + 1 ? true : 'passed';
  }

  /** What `rank` is doing, from its call block. */
  callOf(rank: number): PublishedCall {
    const at = callIndex(this.#layout, rank);
    const state = Atomics.load(this.#words, at + C_STATE);
    return {
      state: state === 1 || state === 2 ? state : 0,
      desc: decodeDescriptor(this.#words, at + C_DESC),
      slot: Atomics.load(this.#words, at + C_GROUP),
      seq: Atomics.load(this.#words, at + C_SEQ),
    };
  }

  /** Bumps `rank`'s heartbeat (only `rank` calls this, from its event loop). */
  beat(rank: number): void {
    Atomics.add(this.#words, callIndex(this.#layout, rank) + C_HEARTBEAT, 1);
  }

  /** Counts a tfjs kernel starting or ending on `rank` (only `rank` calls this). */
  kernelEdge(rank: number): void {
    Atomics.add(this.#words, callIndex(this.#layout, rank) + C_KERNELS, 1);
  }

  kernelEdges(rank: number): number {
    return Atomics.load(this.#words, callIndex(this.#layout, rank) + C_KERNELS);
  }

  /** +1 as a tfjs read starts, −1 as it settles. */
  awaitEdge(rank: number, delta: 1 | -1): void {
    Atomics.add(this.#words, callIndex(this.#layout, rank) + C_AWAITING, delta);
  }

  awaitingReads(rank: number): number {
    return Atomics.load(this.#words, callIndex(this.#layout, rank) + C_AWAITING);
  }

  /** Records that `rank` shares its thread with others, whose first rank is `lead` (see C_TURN). */
  shareThread(rank: number, lead: number): void {
    Atomics.store(this.#words, callIndex(this.#layout, rank) + C_TURN, lead + 1);
  }

  /** Records which rank's code runs on the thread whose first rank is `lead` (null: none now). */
  setHolder(lead: number, holder: number | null): void {
    Atomics.store(
      this.#words,
      callIndex(this.#layout, lead) + C_HOLDER,
      holder === null ? 0 : holder + 1,
    );
  }

  /** The rank whose code runs on `rank`'s thread, when that thread hosts several ranks and one runs. */
  turnOf(rank: number): number | null {
    const lead = Atomics.load(this.#words, callIndex(this.#layout, rank) + C_TURN);
    if (lead === 0) return null;
    const v = Atomics.load(this.#words, callIndex(this.#layout, lead - 1) + C_HOLDER);
    return v === 0 ? null : v - 1;
  }

  heartbeat(rank: number): number {
    return Atomics.load(this.#words, callIndex(this.#layout, rank) + C_HEARTBEAT);
  }

  /**
   * Marks `rank` as blocked on `peer` (null: no longer; `onlyIf` clears only that mark) in a recv from it, or in
   * a send to it that waits for the peer to take its previous chunk, for cycle detection.
   */
  setPeerWait(rank: number, peer: number | null, sending = false, onlyIf?: number): void {
    const at = callIndex(this.#layout, rank) + C_RECV_FROM;
    const word = (p: number) => (sending ? -(p + 1) : p + 1);
    if (peer === null) Atomics.compareExchange(this.#words, at, word(onlyIf ?? -1), 0);
    else Atomics.store(this.#words, at, word(peer));
  }

  /** The peer `rank` is blocked on in a point-to-point call, and whether in a send, or null. */
  peerWait(rank: number): PeerWait | null {
    const v = Atomics.load(this.#words, callIndex(this.#layout, rank) + C_RECV_FROM);
    const peer = Math.abs(v) - 1;
    return v !== 0 && peer < this.#worldSize ? { peer, sending: v < 0 } : null;
  }

  /** Members of the group in registry slot `slot`, ascending. */
  members(slot: number): number[] {
    return groupMembers(this.#words, this.#layout.groupsOffset >> 2, this.#worldSize, slot);
  }

  /** Marks `rank` dead (a planned fault in a simulated run). */
  markDead(rank: number): void {
    const at = callIndex(this.#layout, rank) + C_DEAD;
    if (Atomics.exchange(this.#words, at, C_END_DIED) !== C_END_DIED)
      Atomics.add(this.#words, H_DEAD, 1);
  }

  /** True once any rank was marked dead. */
  anyDead(): boolean {
    return Atomics.load(this.#words, H_DEAD) > 0;
  }

  isDead(rank: number): boolean {
    return Atomics.load(this.#words, callIndex(this.#layout, rank) + C_DEAD) === C_END_DIED;
  }

  /** Marks the rank's program as ended (returned or threw); a rank that died in a planned fault stays dead. */
  markExited(rank: number): void {
    Atomics.compareExchange(this.#words, callIndex(this.#layout, rank) + C_DEAD, 0, C_END_EXITED);
  }

  hasExited(rank: number): boolean {
    return Atomics.load(this.#words, callIndex(this.#layout, rank) + C_DEAD) === C_END_EXITED;
  }
}
