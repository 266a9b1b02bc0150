import type { CallBoard } from './call-board.ts';

/** How often a rank's event loop bumps its heartbeat. */
export const HEARTBEAT_MS = 100;
/** A heartbeat that has not moved for this long means the rank's thread is busy in synchronous work (a loaded machine
 * only makes an idle rank look busy, which waits longer; a busy thread can never look idle). */
export const HEARTBEAT_STALE_MS = 500;
/** Waits shorter than this never look at heartbeats. */
const SAMPLE_AFTER_MS = 100;

type KernelEngine = {
  runKernelFunc(params: unknown): unknown;
  read(dataId: unknown): Promise<unknown>;
};
/** The heartbeats of the ranks this thread hosts, and the one timer that beats them. */
const threadBeats = new Set<() => void>();
let threadTimer: ReturnType<typeof setInterval> | undefined;
/** The board each tfjs engine reports its kernels to (a thread that joins a second world reports to the new one). */
const kernelSinks = new WeakMap<object, { board: CallBoard; rank: number }>();

/**
 * Tells a peer that is busy computing from one that is stuck or gone. A peer outside any collective whose
 * heartbeat stopped is running synchronous work: while its tfjs kernels keep starting (or one is running)
 * it is computing and alive, so waiting for it is bounded by the run's time limit, not by the collective
 * watchdog; a thread that runs a whole watchdog period with no kernel and no collective is spinning
 * (an endless loop), and its waiting peers end the run. A peer awaiting a read of its own device (WebGPU)
 * computes too. A peer whose heartbeat still moves is otherwise idle or
 * waiting on something else, and one inside a collective should progress.
 */
export class PeerLiveness {
  readonly #board: CallBoard;
  readonly #now: () => number;
  readonly #exited: (rank: number) => boolean;
  readonly #seen = new Map<number, { value: number; at: number }>();
  readonly #kernels = new Map<number, { value: number; at: number }>();

  constructor(
    board: CallBoard,
    now: () => number,
    exited: (rank: number) => boolean = () => false,
  ) {
    this.#board = board;
    this.#now = now;
    this.#exited = exited;
  }

  /**
   * What `peer` is doing, for the watchdog and for error messages: its program ended ('exited'); not joined yet
   * ('starting'); inside a collective ('inside'); its thread busy in synchronous work ('computing'); or its event
   * loop answering while it awaits timers, I/O or a promise ('waiting': alive, however long it takes).
   */
  state(peer: number): 'exited' | 'starting' | 'inside' | 'computing' | 'waiting' {
    if (this.#exited(peer)) return 'exited';
    if (this.#board.heartbeat(peer) === 0) return 'starting';
    if (this.#board.callOf(peer).state === 1) return 'inside';
    return this.busy(peer) || this.awaitingDevice(peer) ? 'computing' : 'waiting';
  }

  /**
   * Starts this rank's heartbeat (the first beat at once: a word still at 0 means "not joined yet"); returns a
   * function that stops it. One timer a thread beats for every rank it hosts: the beat says the thread's event
   * loop answers, which its ranks share (512 timers a worker took 9.6 s of a 256-rank run in Chromium).
   */
  static start(board: CallBoard, rank: number): () => void {
    board.beat(rank);
    const beat = () => board.beat(rank);
    threadBeats.add(beat);
    if (!threadTimer) {
      threadTimer = setInterval(() => threadBeats.forEach((b) => b()), HEARTBEAT_MS);
      (threadTimer as { unref?: () => void }).unref?.(); // never the reason a Node worker stays alive
    }
    return () => {
      threadBeats.delete(beat);
      if (threadBeats.size === 0 && threadTimer) {
        clearInterval(threadTimer);
        threadTimer = undefined;
      }
    };
  }

  /** Counts every tfjs kernel of this thread's engine on `rank`'s board (one wrapper per engine). */
  static watchKernels(tf: { engine(): unknown }, board: CallBoard, rank: number): void {
    const engine = tf.engine() as KernelEngine;
    const hooked = kernelSinks.has(engine);
    kernelSinks.set(engine, { board, rank });
    if (hooked) return;
    const run = engine.runKernelFunc.bind(engine);
    engine.runKernelFunc = (params: unknown) => {
      const sink = kernelSinks.get(engine)!;
      sink.board.kernelEdge(sink.rank);
      try {
        return run(params);
      } finally {
        sink.board.kernelEdge(sink.rank);
      }
    };
    // A rank awaiting its device (WebGPU readbacks, first shader compiles take seconds on a slow
    // adapter) is computing, not stuck: its peers wait for it within the run's time limit.
    const read = engine.read.bind(engine);
    engine.read = (dataId: unknown) => {
      const sink = kernelSinks.get(engine)!;
      sink.board.awaitEdge(sink.rank, 1);
      return read(dataId).finally(() => sink.board.awaitEdge(sink.rank, -1));
    };
  }

  /** True while `peer`, outside every collective, awaits a tfjs read of its own device. */
  awaitingDevice(peer: number): boolean {
    return this.#board.callOf(peer).state !== 1 && this.#board.awaitingReads(peer) > 0;
  }

  /**
   * How long `peer` has been spinning as far as this rank has seen: busy outside any collective, with no tfjs
   * kernel starting or running. 0 while it is not (a kernel edge, or an odd count, restarts the clock).
   */
  spinningMs(peer: number): number {
    const t = this.#now();
    // A peer that has not joined yet is still starting (loading tfjs, compiling the program: seconds for 16 ranks
    // sharing 2 busy cores), not looping: waiting for it is bounded by the run's time limit.
    if (!this.busy(peer) || this.awaitingDevice(peer) || this.#board.heartbeat(peer) === 0) {
      this.#kernels.delete(peer);
      return 0;
    }
    const value = this.#board.kernelEdges(peer);
    const seen = this.#kernels.get(peer);
    if (!seen || seen.value !== value || value % 2 === 1) {
      this.#kernels.set(peer, { value, at: t });
      return 0;
    }
    return t - seen.at;
  }

  /** Another rank whose code runs on `peer`'s thread now (logical ranks share a thread, rank/rank-host.ts). */
  #otherOnThread(peer: number): number | null {
    const holder = this.#board.turnOf(peer);
    return holder !== null && holder !== peer ? holder : null;
  }

  /** The rank to name when a wait on `peer` finds it spinning: the one running on its thread. */
  culprit(peer: number): number {
    return this.#otherOnThread(peer) ?? peer;
  }

  /**
   * What a wait on `peer` asks of it. A peer whose thread runs another rank's code is as busy as that thread:
   * it waits within the run's time limit, unless that other rank spins.
   */
  of(peer: number): WatchedPeer {
    return {
      busy: () =>
        this.#otherOnThread(peer) !== null || this.busy(peer) || this.awaitingDevice(peer),
      spinningMs: () => this.spinningMs(this.culprit(peer)),
      exited: () => this.#exited(peer),
      waiting: () => this.state(peer) === 'waiting',
    };
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

/** What the watchdog reads of the peer a wait is for. */
export interface WatchedPeer {
  busy(): boolean;
  spinningMs(): number;
  /** Its program ended: it will not arrive. */
  exited?(): boolean;
  /** Outside any collective with its event loop answering (awaiting timers, I/O, a promise): alive. */
  waiting?(): boolean;
}

/**
 * Per wait: the watchdog counts only time in which the awaited peer was neither busy computing nor waiting
 * with an event loop that answers (issue 34, item 7: liveness is the event loop, not collective calls). A peer
 * whose program ended is reported at once.
 */
export class WatchdogClock {
  #lastBusy = -Infinity;
  #warned = false;
  #warnedWaiting = false;

  /**
   * `stalledMs`: time since progress. Returns 'fire' when the wait has been silent for `limitMs` with the peer
   * not busy, 'spin' when the peer has been busy for `limitMs` without computing (no tfjs kernel), and
   * 'busy' when the peer is busy computing (the first such call per wait returns 'busy-first', to warn once).
   */
  observe(
    stalledMs: number,
    limitMs: number,
    peer: WatchedPeer,
    now: number,
  ): 'ok' | 'busy' | 'busy-first' | 'waiting-first' | 'fire' | 'spin' | 'exited' {
    if (stalledMs < SAMPLE_AFTER_MS) return 'ok'; // the fast path of a collective pays nothing for this
    if (peer.exited?.()) return 'exited';
    // Sampled on every later check, so the heartbeat's and the kernels' history is there when it matters.
    const spinning = peer.spinningMs();
    const waiting = spinning === 0 && (peer.waiting?.() ?? false);
    const busy = spinning > 0 || waiting || peer.busy();
    if (busy) this.#lastBusy = now;
    if (spinning >= limitMs) return 'spin';
    if (stalledMs < limitMs) return 'ok';
    if (waiting) {
      if (this.#warnedWaiting) return 'busy';
      this.#warnedWaiting = true;
      return 'waiting-first';
    }
    if (busy) {
      if (this.#warned) return 'busy';
      this.#warned = true;
      return 'busy-first';
    }
    return now - this.#lastBusy >= limitMs ? 'fire' : 'ok';
  }
}
