// Issue 30: the shared memory of a world grows with W, not W² (collectives/layout.ts), so 1,024 ranks fit.
import { describe, expect, it } from 'vitest';
import { MAX_WORLD_SIZE } from '../../../playground/contract/protocol.ts';
import {
  claimMailbox,
  computeLayout,
  MAILBOXES_PER_RANK,
  mailboxCount,
} from '../../../playground/collectives/layout.ts';
import { createSharedWorld } from '../../../playground/collectives/shared-world.ts';

const MB = 2 ** 20;

describe('the shared-memory layout at scale', () => {
  it('takes 80, 87 and 110 MB at 16, 256 and 1,024 ranks: the data regions, then O(W)', () => {
    const total = (w: number) => createSharedWorld(w).layout.totalBytes / MB;
    expect(MAX_WORLD_SIZE).toBe(1024);
    expect(total(16)).toBeCloseTo(80.44, 1);
    expect(total(256)).toBeCloseTo(86.88, 1);
    expect(total(MAX_WORLD_SIZE)).toBeCloseTo(110.25, 1);
    for (const w of [16, 64, 256, 512, 1024]) {
      const l = createSharedWorld(w).layout;
      // What is not a data region (a fixed 64 MB arena) or a mailbox slot (a fixed 16 MB pool): control words
      // of at most 28 KB a rank (160 group slots' progress blocks and arrivals, mostly), plus the fused kernel's address table (4 bytes a member, so 4 bytes a pair).
      const control = l.totalBytes - w * l.regionBytes - l.mailboxes * l.mailboxBytes;
      expect(control).toBeLessThanOrEqual(64 * 1024 + w * 28 * 1024 + w * w * 4);
      expect(l.mailboxes * l.mailboxBytes).toBeLessThanOrEqual(16 * MB);
      expect(l.mailboxes).toBe(Math.min(w * w, MAILBOXES_PER_RANK * w));
    }
  });

  it('gives every pair its own mailbox up to 16 ranks, as before the pool', () => {
    const l = computeLayout(16, 64 * MB, 64 * 1024);
    const words = new Int32Array(new SharedArrayBuffer(l.totalBytes));
    for (let s = 0; s < 16; s++)
      for (let d = 0; d < 16; d++) expect(claimMailbox(words, l, 16, s, d)).toBe(s * 16 + d);
  });

  it('at 1,024 ranks claims a mailbox per pair on first use, the same one from either side, until the pool is full', () => {
    const w = 1024;
    const l = computeLayout(w, 64 * MB, 1024);
    const words = new Int32Array(new SharedArrayBuffer(l.totalBytes));
    const seen = new Map<number, number>();
    // Every rank talks to 16 peers (a ring both ways and 14 more): the whole pool, no pair twice.
    for (let s = 0; s < w; s++)
      for (let k = 1; k <= MAILBOXES_PER_RANK; k++) {
        const d = (s + k * 37) % w;
        const m = claimMailbox(words, l, w, s, d);
        expect(m).toBeGreaterThanOrEqual(0);
        expect(seen.has(m)).toBe(false);
        seen.set(m, s * w + d);
      }
    expect(seen.size).toBe(mailboxCount(w));
    // The receiver finds the sender's mailbox; a new pair finds none left.
    expect(claimMailbox(words, l, w, 5, (5 + 37) % w)).toBe(
      [...seen].find(([, pair]) => pair === 5 * w + 42)![0],
    );
    expect(claimMailbox(words, l, w, 3, 4)).toBe(-1);
  });
});
