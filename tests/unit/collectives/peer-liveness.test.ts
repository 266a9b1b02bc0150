import { describe, expect, it } from 'vitest';
import type { CallBoard } from '../../../playground/collectives/call-board.ts';
import {
  HEARTBEAT_STALE_MS,
  PeerLiveness,
  WatchdogClock,
} from '../../../playground/collectives/peer-liveness.ts';

/** One peer's words as a waiting rank reads them off the board: call state, heartbeat, kernel edges, reads. */
function fakeBoard(peer: { heartbeat: number; kernels?: number }): CallBoard {
  return {
    callOf: () => ({ state: 0 }),
    heartbeat: () => peer.heartbeat,
    kernelEdges: () => peer.kernels ?? 0,
    awaitingReads: () => 0,
    turnOf: () => null,
  } as unknown as CallBoard;
}

/** What the watchdog says about a wait on `peer` after `ms` of silence, sampled every 100 ms as waits do. */
function watch(board: CallBoard, ms: number, limitMs: number) {
  let now = 0;
  const liveness = new PeerLiveness(board, () => now);
  const clock = new WatchdogClock();
  const seen = new Set<string>();
  for (now = 0; now <= ms; now += 100) seen.add(clock.observe(now, limitMs, liveness.of(1), now));
  return { seen, spinningMs: liveness.spinningMs(1), busy: liveness.busy(1) };
}

/** Rank 1 shares its thread with rank 2 (logical ranks), whose code runs there now; rank 2's words as given. */
function sharedThreadBoard(holder: { heartbeat: number; kernels: number }): CallBoard {
  return {
    callOf: () => ({ state: 0 }),
    heartbeat: (r: number) => (r === 2 ? holder.heartbeat : 5),
    kernelEdges: (r: number) => (r === 2 ? holder.kernels : 0),
    awaitingReads: () => 0,
    turnOf: () => 2,
  } as unknown as CallBoard;
}

describe('peer liveness of a rank that shares its thread (issue 30)', () => {
  it('waits while the rank running on its thread computes, and names that rank when it spins', () => {
    const holder = { heartbeat: 1, kernels: 0 };
    let now = 0;
    const liveness = new PeerLiveness(sharedThreadBoard(holder), () => now);
    expect(liveness.culprit(1)).toBe(2);
    const computing = new WatchdogClock();
    const seen = new Set<string>();
    for (now = 0; now <= 20_000; now += 100) {
      holder.kernels += 2;
      seen.add(computing.observe(now, 5_000, liveness.of(1), now));
    }
    expect([...seen]).not.toContain('fire');
    expect([...seen]).not.toContain('spin');
    const spinning = new WatchdogClock();
    const verdicts = new Set<string>();
    for (let t = 0; t <= 6_000; t += 100, now += 100)
      verdicts.add(spinning.observe(t, 5_000, liveness.of(1), now));
    expect([...verdicts]).toContain('spin');
  });
});

describe('peer liveness: starting, computing, looping', () => {
  it('a peer that has not joined yet (heartbeat word still 0) is starting: waited for, never called a loop', () => {
    // 16 ranks on 2 loaded cores can take many watchdog periods to load tfjs and reach their first call.
    const { seen, spinningMs, busy } = watch(fakeBoard({ heartbeat: 0 }), 20_000, 5_000);
    expect(busy).toBe(true);
    expect(spinningMs).toBe(0);
    expect([...seen]).not.toContain('spin');
    expect([...seen]).not.toContain('fire');
    expect([...seen]).toContain('busy-first');
  });

  it('a joined peer whose heartbeat and kernels stand still for the limit is a loop', () => {
    const { seen } = watch(fakeBoard({ heartbeat: 1 }), 6_000, 5_000);
    expect([...seen]).toContain('spin');
  });

  it('a joined peer whose kernels keep starting is computing, however long', () => {
    const peer = { heartbeat: 3, kernels: 0 };
    const board = fakeBoard(peer);
    let now = 0;
    const liveness = new PeerLiveness(board, () => now);
    const clock = new WatchdogClock();
    const seen = new Set<string>();
    for (now = 0; now <= 30_000; now += 100) {
      peer.kernels += 2; // a kernel started and ended since the last look
      seen.add(clock.observe(now, 5_000, liveness.of(1), now));
    }
    expect([...seen]).not.toContain('spin');
    expect([...seen]).not.toContain('fire');
    expect(HEARTBEAT_STALE_MS).toBeLessThan(5_000);
  });

  it('the heartbeat beats once as the engine starts, so a loop right after joining is still seen', () => {
    const words = { beats: 0 };
    const board = { beat: () => words.beats++ } as unknown as CallBoard;
    const stop = PeerLiveness.start(board, 0);
    stop();
    expect(words.beats).toBe(1);
  });
});
