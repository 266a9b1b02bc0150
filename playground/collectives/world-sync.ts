import { H_POISON, H_REASON_LEN, REASON_BYTES, REASON_OFFSET } from './layout.ts';

/** How a wait may spend its time: block the thread (Atomics.wait) or yield to the event loop (Atomics.waitAsync). */
export type WaitMode = 'block' | 'async';

/** Called while a wait makes no progress: throws to end it (poison, mismatch, deadlock); `stalledMs` feeds the watchdog. */
export type WaitCheck = (stalledMs: number) => void;

const SLICE_MS = 100;
const SPIN_MS = 0.02;
/** Longest a reader waits for another writer to finish the poison reason; the memory is writable by every rank, so never forever. */
const REASON_WAIT_MS = 50;
const POISON_WRITING = 2;

/** Counters that only grow, with notify only when a waiter announced itself, and the world's poison flag. */
export class WorldSync {
  readonly #words: Int32Array;
  readonly #bytes: Uint8Array;
  readonly #spin: boolean;
  readonly #now: () => number;

  constructor(memory: WebAssembly.Memory, spin: boolean, now: () => number) {
    this.#words = new Int32Array(memory.buffer);
    this.#bytes = new Uint8Array(memory.buffer);
    this.#spin = spin;
    this.#now = now;
  }

  /** Adds one to the counter at `index`; wakes waiters only if one announced itself in the next word. */
  bump(index: number): void {
    Atomics.add(this.#words, index, 1);
    if (Atomics.load(this.#words, index + 1) > 0) Atomics.notify(this.#words, index);
  }

  /**
   * Adds one to a counter many ranks add to (a group's arrivals, layout.ts arrivedIndex); wakes its waiters only
   * when the count reaches a multiple of `every` (the group's size: every member has made the same step).
   */
  bumpShared(index: number, every: number): void {
    const v = Atomics.add(this.#words, index, 1) + 1;
    if (v % every === 0 && Atomics.load(this.#words, index + 1) > 0)
      Atomics.notify(this.#words, index);
  }

  value(index: number): number {
    return Atomics.load(this.#words, index);
  }

  /** True while another thread is still writing the reason, for at most REASON_WAIT_MS of wall time. */
  #writerBusy(deadline: number): boolean {
    return Atomics.load(this.#words, H_POISON) === POISON_WRITING && performance.now() < deadline;
  }

  poisonReason(): string | null {
    if (Atomics.load(this.#words, H_POISON) === 0) return null;
    const deadline = performance.now() + REASON_WAIT_MS;
    while (this.#writerBusy(deadline)) {
      /* the aborting rank is still writing its reason */
    }
    const len = Math.max(0, Math.min(REASON_BYTES, Atomics.load(this.#words, H_REASON_LEN)));
    return (
      new TextDecoder().decode(this.#bytes.slice(REASON_OFFSET, REASON_OFFSET + len)) ||
      'the run was aborted'
    );
  }

  /** Poisons the world (first reason wins) and wakes every waiter listed in `wakeIndexes`. Bounded: safe on the main thread. */
  poison(reason: string, wakeIndexes: Iterable<number>): void {
    if (Atomics.compareExchange(this.#words, H_POISON, 0, POISON_WRITING) === 0) {
      const encoded = new TextEncoder().encode(reason).slice(0, REASON_BYTES);
      this.#bytes.set(encoded, REASON_OFFSET);
      Atomics.store(this.#words, H_REASON_LEN, encoded.length);
      Atomics.store(this.#words, H_POISON, 1);
    }
    for (const i of wakeIndexes) Atomics.notify(this.#words, i);
  }

  /** Spins briefly (when every rank has its own core) for words[index] >= target. */
  #spinFor(index: number, target: number): boolean {
    const w = this.#words;
    if (Atomics.load(w, index) >= target) return true;
    if (!this.#spin) return false;
    const until = this.#now() + SPIN_MS;
    do {
      for (let i = 0; i < 64; i++) if (Atomics.load(w, index) >= target) return true;
    } while (this.#now() < until);
    return false;
  }

  /**
   * The one wait loop: yields the value to sleep on until words[index] >= target, calling `check` with the
   * time since the counter last moved. The caller sleeps (blocking or async) between steps.
   */
  *#steps(index: number, target: number, check: WaitCheck): Generator<number, void> {
    const w = this.#words;
    let last = Atomics.load(w, index);
    let since = this.#now();
    for (;;) {
      const v = Atomics.load(w, index);
      if (v >= target) return;
      const t = this.#now();
      if (v !== last) {
        last = v;
        since = t;
      }
      check(t - since);
      yield v;
    }
  }

  /** Waits until words[index] >= target: blocking the thread, or yielding to the event loop so compute on this rank runs. */
  wait(mode: WaitMode, index: number, target: number, check: WaitCheck): void | Promise<void> {
    // Already there: nothing to await (a rank of a large world looks at up to 1,023 peers a call).
    if (Atomics.load(this.#words, index) >= target) return;
    return mode === 'block'
      ? this.waitBlocking(index, target, check)
      : this.waitAsync(index, target, check);
  }

  waitBlocking(index: number, target: number, check: WaitCheck): void {
    if (this.#spinFor(index, target)) return;
    const w = this.#words;
    Atomics.add(w, index + 1, 1);
    try {
      for (const v of this.#steps(index, target, check)) Atomics.wait(w, index, v, SLICE_MS);
    } finally {
      Atomics.sub(w, index + 1, 1);
    }
  }

  async waitAsync(index: number, target: number, check: WaitCheck): Promise<void> {
    const w = this.#words;
    if (Atomics.load(w, index) >= target) return;
    Atomics.add(w, index + 1, 1);
    try {
      for (const v of this.#steps(index, target, check)) {
        const r = Atomics.waitAsync(w, index, v, SLICE_MS);
        if (r.async) await r.value;
      }
    } finally {
      Atomics.sub(w, index + 1, 1);
    }
  }
}
