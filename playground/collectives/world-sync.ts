import { H_POISON, H_REASON_LEN, REASON_BYTES, REASON_OFFSET } from './layout.ts';

/** How a wait may spend its time: block the thread (Atomics.wait) or yield to the event loop (Atomics.waitAsync). */
export type WaitMode = 'block' | 'async';

/** Called while a wait makes no progress: throws to end it (poison, mismatch, deadlock); `stalledMs` feeds the watchdog. */
export type WaitCheck = (stalledMs: number) => void;

const SLICE_MS = 100;
const SPIN_MS = 0.02;

/** Counters that only grow, with notify only when a waiter announced itself, and the world's poison flag. */
export class WorldSync {
  private readonly words: Int32Array;
  private readonly bytes: Uint8Array;
  private readonly spin: boolean;
  private readonly now: () => number;

  constructor(memory: WebAssembly.Memory, spin: boolean, now: () => number) {
    this.words = new Int32Array(memory.buffer);
    this.bytes = new Uint8Array(memory.buffer);
    this.spin = spin;
    this.now = now;
  }

  /** Adds one to the counter at `index`; wakes waiters only if one announced itself in the next word. */
  bump(index: number): void {
    Atomics.add(this.words, index, 1);
    if (Atomics.load(this.words, index + 1) > 0) Atomics.notify(this.words, index);
  }

  value(index: number): number {
    return Atomics.load(this.words, index);
  }

  poisonReason(): string | null {
    if (Atomics.load(this.words, H_POISON) === 0) return null;
    while (Atomics.load(this.words, H_POISON) === 2) { /* the aborting rank is still writing its reason */ }
    const len = Atomics.load(this.words, H_REASON_LEN);
    return new TextDecoder().decode(this.bytes.slice(REASON_OFFSET, REASON_OFFSET + len));
  }

  /** Poisons the world (first reason wins) and wakes every waiter listed in `wakeIndexes`. */
  poison(reason: string, wakeIndexes: Iterable<number>): void {
    if (Atomics.compareExchange(this.words, H_POISON, 0, 2) === 0) {
      const encoded = new TextEncoder().encode(reason).slice(0, REASON_BYTES);
      this.bytes.set(encoded, REASON_OFFSET);
      Atomics.store(this.words, H_REASON_LEN, encoded.length);
      Atomics.store(this.words, H_POISON, 1);
    }
    while (Atomics.load(this.words, H_POISON) === 2) { /* another rank is writing its reason */ }
    for (const i of wakeIndexes) Atomics.notify(this.words, i);
  }

  /** Blocks until words[index] >= target; spins first when every rank has its own core. */
  waitBlocking(index: number, target: number, check: WaitCheck): void {
    const w = this.words;
    if (Atomics.load(w, index) >= target) return;
    if (this.spin) {
      const until = this.now() + SPIN_MS;
      do {
        for (let i = 0; i < 64; i++) if (Atomics.load(w, index) >= target) return;
      } while (this.now() < until);
    }
    let last = Atomics.load(w, index);
    let since = this.now();
    Atomics.add(w, index + 1, 1);
    try {
      for (;;) {
        const v = Atomics.load(w, index);
        if (v >= target) return;
        const t = this.now();
        if (v !== last) { last = v; since = t; }
        check(t - since);
        Atomics.wait(w, index, v, SLICE_MS);
      }
    } finally {
      Atomics.sub(w, index + 1, 1);
    }
  }

  /** Like waitBlocking but never blocks the thread: compute on this rank runs while it waits. */
  async waitAsync(index: number, target: number, check: WaitCheck): Promise<void> {
    const w = this.words;
    if (Atomics.load(w, index) >= target) return;
    let last = Atomics.load(w, index);
    let since = this.now();
    Atomics.add(w, index + 1, 1);
    try {
      for (;;) {
        const v = Atomics.load(w, index);
        if (v >= target) return;
        const t = this.now();
        if (v !== last) { last = v; since = t; }
        check(t - since);
        const r = Atomics.waitAsync(w, index, v, SLICE_MS);
        if (r.async) await r.value;
      }
    } finally {
      Atomics.sub(w, index + 1, 1);
    }
  }
}
