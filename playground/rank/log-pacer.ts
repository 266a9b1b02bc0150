import { BATCH_CHARS, cutLine } from '../contract/output-limits.ts';
import type { ClusterEvent } from '../contract/protocol.ts';

/** While fewer log messages than this are unread, each line goes out at once (a line before a hang still shows). */
const EAGER_MESSAGES = 2;
/** Unread log messages a rank may have in flight before it waits for the page. */
const MAX_IN_FLIGHT = 4;
/** Lines one message carries at most during a flood. */
export const BATCH_LINES = 256;

/**
 * Console output with backpressure. A rank posts log lines as arrays of events; at human rates
 * each line goes out alone, in a flood lines are batched (BATCH_LINES lines or BATCH_CHARS characters,
 * each line cut to MAX_LINE_CHARS), and a rank more than MAX_IN_FLIGHT
 * messages ahead of the page waits (Atomics.wait, in its own worker, never on the page) until
 * the page catches up, so a flood cannot queue millions of messages in front of the Stop button.
 * `counters` is a SharedArrayBuffer-backed Int32Array with two slots per rank: messages the page
 * has taken, and whether the rank is waiting (so the page calls Atomics.notify only then).
 */
export class LogPacer {
  private sent = 0;
  private buffer: ClusterEvent[] = [];
  private bufferedChars = 0;
  private flushQueued = false;
  private readonly counters: Int32Array;
  private readonly slot: number;
  private readonly post: (events: ClusterEvent[]) => void;

  constructor(counters: Int32Array, rank: number, post: (events: ClusterEvent[]) => void) {
    this.counters = counters;
    this.slot = 2 * rank;
    this.post = post;
  }

  private inFlight = () => this.sent - Atomics.load(this.counters, this.slot);

  /** Queues a log line, cut to MAX_LINE_CHARS here, in the rank, so a huge line never reaches the page. */
  push(line: ClusterEvent): void {
    if (line.type === 'log' && line.text.length > 0) {
      line = { ...line, text: cutLine(line.text) };
      this.bufferedChars += line.text.length;
    }
    this.buffer.push(line);
    if (this.inFlight() < EAGER_MESSAGES) return this.flush();
    if (this.buffer.length >= BATCH_LINES || this.bufferedChars >= BATCH_CHARS) {
      this.waitForPage();
      return this.flush();
    }
    if (!this.flushQueued) {
      this.flushQueued = true;
      setTimeout(() => {
        this.flushQueued = false;
        this.flush();
      }, 0);
    }
  }

  /** Posts buffered lines now (before any other event, so order holds). */
  flush(): void {
    if (!this.buffer.length) return;
    this.sent++;
    this.bufferedChars = 0;
    this.post(this.buffer.splice(0));
  }

  private waitForPage(): void {
    while (this.inFlight() >= MAX_IN_FLIGHT) {
      Atomics.store(this.counters, this.slot + 1, 1);
      const seen = Atomics.load(this.counters, this.slot);
      if (this.sent - seen >= MAX_IN_FLIGHT) Atomics.wait(this.counters, this.slot, seen, 1_000);
      Atomics.store(this.counters, this.slot + 1, 0);
    }
  }
}

/** The page's side: two slots per rank. */
export const createLogCounters = (worldSize: number) =>
  new Int32Array(new SharedArrayBuffer(8 * worldSize));

/** The page took one log message from `rank`: let it post another, waking it only if it waits. */
export function logMessageTaken(counters: Int32Array, rank: number): void {
  Atomics.add(counters, 2 * rank, 1);
  if (Atomics.load(counters, 2 * rank + 1) === 1) Atomics.notify(counters, 2 * rank);
}
