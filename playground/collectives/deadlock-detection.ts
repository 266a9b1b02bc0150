import type { CallBoard, PeerWait } from './call-board.ts';

/** How long a peer may sit in another group's call that needs us before we call it a deadlock. */
export const DEADLOCK_CONFIRM_MS = 500;

/**
 * The one deadlock a peer can show us while we wait for it in group `slot`: it sits in a call of another
 * group we belong to but have not reached. Returns that call's key ("slot:seq"), or null.
 */
export function blockingCall(
  board: CallBoard,
  me: number,
  slot: number,
  peer: number,
  nextSeq: (slot: number) => number,
): string | null {
  const theirs = board.callOf(peer);
  if (theirs.state !== 1 || theirs.slot === slot) return null;
  if (!board.members(theirs.slot).includes(me)) return null;
  if (nextSeq(theirs.slot) > theirs.seq) return null;
  return `${theirs.slot}:${theirs.seq}`;
}

/** How long a cycle of point-to-point waits must stand (no member busy computing) before it is called a deadlock. */
export const RECV_CYCLE_CONFIRM_MS = 1000;

/** One link of a cycle: `rank` is blocked on the next link's rank, in a send or a recv. */
export interface CycleLink {
  rank: number;
  sending: boolean;
}

/**
 * Follows "blocked on" from `me` (blocked on `mine.peer`): the links in order if they close a cycle back to
 * `me`, none of them busy computing (a busy rank may still send or receive), else null. A recv waits for its
 * peer to send; a send longer than a mailbox waits for its peer to receive: either way the peer must move.
 */
export function p2pCycle(
  board: CallBoard,
  me: number,
  mine: PeerWait,
  busy: (rank: number) => boolean,
  worldSize: number,
  /** Whether `rank` still cannot move in its call on `peer` (its mark may be stale: satisfied, not yet woken). */
  stillBlocked: (rank: number, peer: number, sending: boolean) => boolean = () => true,
): CycleLink[] | null {
  const chain: CycleLink[] = [{ rank: me, sending: mine.sending }];
  let cur = mine.peer;
  while (chain.length <= worldSize) {
    if (cur === me) return chain;
    if (chain.some((l) => l.rank === cur) || busy(cur)) return null;
    const next = board.peerWait(cur);
    // A mark whose wait is already met (its peer sent, or took the chunk) belongs to a rank that has yet to
    // wake, as a logical rank waiting for its thread's turn may for seconds: no cycle.
    if (next === null || !stillBlocked(cur, next.peer, next.sending)) return null;
    chain.push({ rank: cur, sending: next.sending });
    cur = next.peer;
  }
  return null;
}

/** Confirms a suspected deadlock only once the same blocking call has stood for DEADLOCK_CONFIRM_MS. */
export class DeadlockSuspicion {
  #suspect: string | null = null;
  #since = 0;
  readonly #confirmMs: number;

  constructor(confirmMs = DEADLOCK_CONFIRM_MS) {
    this.#confirmMs = confirmMs;
  }

  /** True when `call` (null: none) has blocked us for long enough. */
  confirmed(call: string | null, now: number): boolean {
    if (call === null) {
      this.#suspect = null;
      return false;
    }
    if (call !== this.#suspect) {
      this.#suspect = call;
      this.#since = now;
      return false;
    }
    return now - this.#since >= this.#confirmMs;
  }
}
