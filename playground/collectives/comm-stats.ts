import type { CommKind, CommStats } from '../contract/protocol.ts';

/** Bytes this rank sent and received, and calls made, per kind: what the collectives actually moved. */
export class CommCounters {
  readonly #stats: CommStats = {};

  count(kind: CommKind, sent: number, received: number, call: boolean): void {
    const c = (this.#stats[kind] ??= { sent: 0, received: 0, calls: 0 });
    c.sent += sent;
    c.received += received;
    if (call) c.calls++;
  }

  /** A copy: callers may keep or change it. */
  snapshot(): CommStats {
    return structuredClone(this.#stats);
  }
}
