import type { CallBoard } from './call-board.ts';

/** How long a peer may sit in another group's call that needs us before we call it a deadlock. */
export const DEADLOCK_CONFIRM_MS = 500;

/**
 * The one deadlock a peer can show us while we wait for it in group `slot`: it sits in a call of another
 * group we belong to but have not reached. Returns that call's key ("slot:seq"), or null.
 */
export function blockingCall(board: CallBoard, me: number, slot: number, peer: number, nextSeq: (slot: number) => number): string | null {
  const theirs = board.callOf(peer);
  if (theirs.state !== 1 || theirs.slot === slot) return null;
  if (!board.members(theirs.slot).includes(me)) return null;
  if (nextSeq(theirs.slot) > theirs.seq) return null;
  return `${theirs.slot}:${theirs.seq}`;
}

/** Confirms a suspected deadlock only once the same blocking call has stood for DEADLOCK_CONFIRM_MS. */
export class DeadlockSuspicion {
  #suspect: string | null = null;
  #since = 0;

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
    return now - this.#since >= DEADLOCK_CONFIRM_MS;
  }
}
