import type { CallBoard } from './call-board.ts';

/** How often a rank's event loop bumps its heartbeat. */
export const HEARTBEAT_MS = 100;
/** A heartbeat that has not moved for this long means the rank's thread is busy in synchronous work (a loaded machine
 * only makes an idle rank look busy, which waits longer; a busy thread can never look idle). */
export const HEARTBEAT_STALE_MS = 500;
/** Waits shorter than this never look at heartbeats. */
const SAMPLE_AFTER_MS = 100;

/**
 * Tells a peer that is busy computing from one that is stuck or gone. A peer outside any collective whose
 * heartbeat stopped is running synchronous work (a long tfjs computation, or an endless loop): it is alive,
 * so waiting for it is bounded by the run's time limit, not by the collective watchdog. A peer whose
 * heartbeat still moves is idle or waiting on something else, and one inside a collective should progress.
 */
export class PeerLiveness {
  readonly #board: CallBoard;
  readonly #now: () => number;
  readonly #seen = new Map<number, { value: number; at: number }>();

  constructor(board: CallBoard, now: () => number) {
    this.#board = board;
    this.#now = now;
  }

  /** Starts this rank's heartbeat; returns a function that stops it. */
  static start(board: CallBoard, rank: number): () => void {
    const timer = setInterval(() => board.beat(rank), HEARTBEAT_MS);
    (timer as { unref?: () => void }).unref?.(); // never the reason a Node worker stays alive
    return () => clearInterval(timer);
  }

  /** True while `peer` is outside every collective with its thread busy (heartbeat stale). */
  busy(peer: number): boolean {
    if (this.#board.callOf(peer).state === 1) return false;
    const value = this.#board.heartbeat(peer);
    const t = this.#now();
    const seen = this.#seen.get(peer);
    if (!seen || seen.value !== value) {
      this.#seen.set(peer, { value, at: t });
      return false;
    }
    return t - seen.at >= HEARTBEAT_STALE_MS;
  }
}

/** Per wait: the watchdog counts only time in which the awaited peer was not busy computing. */
export class WatchdogClock {
  #lastBusy = -Infinity;
  #warned = false;

  /**
   * `stalledMs`: time since progress. Returns 'fire' when the wait has been silent for `limitMs` with the peer
   * not busy, 'busy' when the peer is busy (the first such call per wait returns 'busy-first', to warn once).
   */
  observe(
    stalledMs: number,
    limitMs: number,
    peerBusy: () => boolean,
    now: number,
  ): 'ok' | 'busy' | 'busy-first' | 'fire' {
    if (stalledMs < SAMPLE_AFTER_MS) return 'ok'; // the fast path of a collective pays nothing for this
    const busy = peerBusy(); // sampled on every later check, so the heartbeat's history is there when it matters
    if (busy) this.#lastBusy = now;
    if (stalledMs < limitMs) return 'ok';
    if (busy) {
      if (this.#warned) return 'busy';
      this.#warned = true;
      return 'busy-first';
    }
    return now - this.#lastBusy >= limitMs ? 'fire' : 'ok';
  }
}
