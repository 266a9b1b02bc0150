import { describe, expect, it } from 'vitest';
import { ProgramClock, type ComputeSpan } from '../../../playground/simulation/program-clock.ts';
import {
  clusterShape,
  groupCollectiveSeconds,
  type ClusterShape,
  type Collective,
} from '../../../playground/simulation/index.ts';

/** One rank's compute stream, recording its spans. */
function clock(
  faults: ConstructorParameters<typeof ProgramClock>[1] = {},
  busy: (from: number, to: number) => number = () => 0,
) {
  const spans: ComputeSpan[] = [];
  const c = new ProgramClock(0, faults, (s) => spans.push(s), busy);
  return { c, spans };
}

describe('ProgramClock: one rank’s compute stream in program order (the one clock implementation)', () => {
  it('charges in order; a wait whose end is unknown queues later charges until it is known', async () => {
    const { c } = clock();
    c.charge(1, 'forward');
    const work: { end?: number } = {};
    c.wait(work);
    c.charge(2, 'backward');
    expect(c.now).toBeUndefined();
    const mark = c.mark();
    work.end = 1.5;
    c.advance();
    expect(await mark).toBe(3.5);
    expect(c.computeSeconds).toBe(3);
  });

  it('a wait already over does not move the clock; a later one splits into communication and waiting for peers', () => {
    // The communication stream ran from 1.5 to 2: the rest of the wait was for a late peer.
    const { c } = clock({}, (from, to) => Math.max(0, Math.min(to, 2) - Math.max(from, 1.5)));
    c.charge(1);
    c.wait({ end: 0.5 });
    expect(c.now).toBe(1);
    c.wait({ end: 2 });
    expect(c.now).toBe(2);
    expect(c.exposedCommSeconds).toBeCloseTo(0.5, 12);
    expect(c.peerWaitSeconds).toBeCloseTo(0.5, 12);
  });

  it('a slower rank’s compute takes `slowdown` times longer', () => {
    const { c } = clock({ slowdown: 2 });
    c.charge(0.25);
    expect(c.now).toBe(0.5);
  });

  it('jitter is seeded, bounded and stretches compute only', () => {
    const stretches = (seed: number) => {
      const { c, spans } = clock({ jitter: { amplitude: 0.25, seed } });
      for (let i = 0; i < 50; i++) {
        c.charge(1, `k${i}`);
        c.wait({ end: (c.now ?? 0) + 1 }); // a gap, so every charge is its own span
      }
      c.flush();
      return spans.map((s) => s.end - s.start);
    };
    const a = stretches(1);
    for (const d of a) {
      expect(d).toBeGreaterThanOrEqual(1);
      expect(d).toBeLessThan(1.25);
    }
    expect(new Set(a).size).toBeGreaterThan(40);
    expect(stretches(1)).toEqual(a);
    expect(stretches(2)).not.toEqual(a);
  });

  it('rejects bad faults and negative charges', () => {
    expect(() => clock({ slowdown: 0.5 })).toThrow(/slowdown of rank 0 must be ≥ 1/);
    expect(() => clock({ jitter: { amplitude: -1, seed: 1 } })).toThrow(/amplitude/);
    expect(() => clock().c.charge(-1)).toThrow(/≥ 0/);
  });
});

describe('collective times ZeRO-3 against DDP (the model the clocks charge)', () => {
  const t = (s: ClusterShape, c: Collective, bytes: number) =>
    groupCollectiveSeconds(
      s,
      c,
      bytes,
      Array.from({ length: s.nodes * s.gpusPerNode }, (_, r) => r),
    );
  const bytes = 2 * 1.3e9; // bf16 gradients of a 1.3B-parameter model

  it('ZeRO-3 communication per step is 1.5× DDP’s ± 5 % with ring collectives', () => {
    for (const s of [
      clusterShape('a100-hdr', 1, 8),
      clusterShape('a100-hdr', 2, 8),
      clusterShape('h100-ndr-no-nvls', 2, 8),
    ]) {
      const ratio =
        (2 * t(s, 'all-gather', bytes) + t(s, 'reduce-scatter', bytes)) / t(s, 'all-reduce', bytes);
      expect(ratio).toBeGreaterThan(1.5 * 0.95);
      expect(ratio).toBeLessThan(1.5 * 1.05);
    }
  });

  it('with NVLink SHARP the all-reduce gets cheaper than the ring, so the ratio grows (what the book must say)', () => {
    const s = clusterShape('h100-ndr', 1, 8);
    const ratio =
      (2 * t(s, 'all-gather', bytes) + t(s, 'reduce-scatter', bytes)) / t(s, 'all-reduce', bytes);
    expect(ratio).toBeGreaterThan(1.5 * 1.05);
  });

  it('a sub-group on one node is timed on that node alone', () => {
    const s = clusterShape('a100-hdr', 2, 8);
    expect(groupCollectiveSeconds(s, 'all-reduce', 1e8, [0, 1, 2, 3])).toBeLessThan(
      groupCollectiveSeconds(s, 'all-reduce', 1e8, [0, 1, 8, 9]),
    );
  });
});
