import { describe, expect, it } from 'vitest';
import { clusterShape } from '../../../playground/simulation/cluster-shape.ts';
import {
  CollectiveTimeoutError,
  VirtualClocks,
  type FaultPlan,
} from '../../../playground/simulation/virtual-clock.ts';

const BUCKETS = 8;

/**
 * A DDP step on every rank: forward, then per bucket a backward slice and its gradient all-reduce
 * (issued at once with overlap, after the whole backward without). Every rank issues before any
 * waits, the order a real cluster reaches its waits in.
 */
function ddpStep(
  clocks: VirtualClocks,
  opts: {
    overlap: boolean;
    backward: number;
    bucketBytes: number;
    step?: number;
    reverse?: boolean;
  },
): void {
  const step = opts.step ?? 0;
  const handles: ReturnType<VirtualClocks['issue']>[][] = [];
  const order = Array.from({ length: clocks.world }, (_, r) => r);
  if (opts.reverse) order.reverse();
  for (const r of order) {
    clocks.beginStep(r, step);
    clocks.compute(r, opts.backward / 2, 'forward');
    handles[r] = [];
    for (let b = 0; b < BUCKETS; b++) {
      clocks.compute(r, opts.backward / BUCKETS, `backward ${b}`);
      if (opts.overlap)
        handles[r]!.push(
          clocks.issue(r, { key: `s${step}b${b}`, kind: 'all-reduce', bytes: opts.bucketBytes }),
        );
    }
    if (!opts.overlap)
      for (let b = 0; b < BUCKETS; b++)
        handles[r]!.push(
          clocks.issue(r, { key: `s${step}b${b}`, kind: 'all-reduce', bytes: opts.bucketBytes }),
        );
  }
  for (const hs of handles) for (const h of hs) clocks.wait(h);
}

const shape = clusterShape('a100-hdr', 2, 8);

describe('virtual clocks: DDP overlap', () => {
  // Bucket size chosen so one step's all-reduces take about as long as its backward pass.
  const probe = new VirtualClocks(shape);
  const bucketBytes = 25 * 2 ** 20;
  const comm = BUCKETS * probe.collectiveSeconds('all-reduce', bucketBytes);
  const backward = comm;

  it('exposed communication shrinks by at least 40 % with overlap when comm ≈ backward', () => {
    const off = new VirtualClocks(shape);
    ddpStep(off, { overlap: false, backward, bucketBytes });
    const on = new VirtualClocks(shape);
    ddpStep(on, { overlap: true, backward, bucketBytes });
    const exposedOff = off.report(0).exposedCommSeconds;
    const exposedOn = on.report(0).exposedCommSeconds;
    expect(exposedOff).toBeCloseTo(comm, 9);
    expect(1 - exposedOn / exposedOff).toBeGreaterThanOrEqual(0.4);
    // With overlap only the last bucket's all-reduce is left after the backward pass.
    expect(exposedOn).toBeCloseTo(comm / BUCKETS, 9);
    expect(on.report(0).clock).toBeLessThan(off.report(0).clock);
  });

  it('the same schedule gives the same virtual times, in any issue order across ranks', () => {
    const a = new VirtualClocks(shape, { jitter: { amplitude: 0.1, seed: 7 } });
    const b = new VirtualClocks(shape, { jitter: { amplitude: 0.1, seed: 7 } });
    ddpStep(a, { overlap: true, backward, bucketBytes });
    ddpStep(b, { overlap: true, backward, bucketBytes, reverse: true });
    const sorted = (v: VirtualClocks) =>
      [...v.timeline].sort(
        (x, y) => x.rank - y.rank || x.start - y.start || x.lane.localeCompare(y.lane),
      );
    expect(sorted(b)).toEqual(sorted(a));
    const c = new VirtualClocks(shape, { jitter: { amplitude: 0.1, seed: 8 } });
    ddpStep(c, { overlap: true, backward, bucketBytes });
    expect(c.report(3).clock).not.toBe(a.report(3).clock);
  });

  it('a collective ends at the last arrival plus its duration, on every member', () => {
    const v = new VirtualClocks(clusterShape('h100-ndr', 1, 4));
    v.compute(0, 1e-3);
    v.compute(1, 3e-3);
    v.compute(2, 2e-3);
    v.compute(3, 0);
    const hs = [0, 1, 2, 3].map((r) => v.issue(r, { key: 'g', kind: 'all-reduce', bytes: 1e6 }));
    const d = v.collectiveSeconds('all-reduce', 1e6);
    expect(v.completion('g')).toBeCloseTo(3e-3 + d, 12);
    for (const h of hs) expect(v.wait(h)).toBeCloseTo(3e-3 + d, 12);
    expect(v.report(1).exposedCommSeconds).toBeCloseTo(d, 12);
    expect(v.report(3).exposedCommSeconds).toBeCloseTo(3e-3 + d, 12);
  });

  it('async work overlaps later compute, and wait() only moves the clock when the work is not done', () => {
    const v = new VirtualClocks(clusterShape('h100-ndr', 1, 2));
    const d = v.collectiveSeconds('all-reduce', 1e6);
    const hs = [0, 1].map((r) => v.issue(r, { key: 'a', kind: 'all-reduce', bytes: 1e6 }));
    v.compute(0, 10 * d);
    v.compute(1, d / 2);
    expect(v.wait(hs[0]!)).toBeCloseTo(10 * d, 12);
    expect(v.wait(hs[1]!)).toBeCloseTo(d, 12);
    expect(v.report(0).exposedCommSeconds).toBe(0);
  });

  it('communication on one stream is serial: the second collective starts when the first ends', () => {
    const v = new VirtualClocks(clusterShape('h100-ndr', 1, 2));
    const d = v.collectiveSeconds('all-gather', 4e6);
    for (const r of [0, 1]) v.issue(r, { key: 'x', kind: 'all-gather', bytes: 4e6 });
    for (const r of [0, 1]) v.issue(r, { key: 'y', kind: 'all-gather', bytes: 4e6 });
    expect(v.completion('y')).toBeCloseTo(2 * d, 12);
  });

  it('a sub-group on one node is timed on that node alone', () => {
    const v = new VirtualClocks(clusterShape('a100-hdr', 2, 8));
    const inNode = v.collectiveSeconds('all-reduce', 1e8, [0, 1, 2, 3, 4, 5, 6, 7]);
    const acrossNodes = v.collectiveSeconds('all-reduce', 1e8, [0, 8]);
    expect(inNode).toBeLessThan(acrossNodes);
  });

  it('send/recv between nodes is slower than inside one', () => {
    const v = new VirtualClocks(clusterShape('a100-hdr', 2, 8));
    for (const r of [0, 1])
      v.issue(r, { key: 'p', kind: 'send-recv', bytes: 1e8, members: [0, 1] });
    for (const r of [2, 9])
      v.issue(r, { key: 'q', kind: 'send-recv', bytes: 1e8, members: [2, 9] });
    expect(v.completion('p')!).toBeLessThan(v.completion('q')!);
  });
});

describe('virtual clocks: ZeRO-3 against DDP', () => {
  it('ZeRO-3 communication per step is 1.5× DDP’s ± 5 % (all-gather twice and reduce-scatter once vs one all-reduce)', () => {
    const bytes = 2 * 1.3e9; // bf16 gradients of a 1.3B-parameter model
    for (const s of [
      clusterShape('a100-hdr', 1, 8),
      clusterShape('a100-hdr', 2, 8),
      clusterShape('h100-ndr-no-nvls', 2, 8),
    ]) {
      const v = new VirtualClocks(s);
      const ddp = v.collectiveSeconds('all-reduce', bytes);
      const zero3 =
        2 * v.collectiveSeconds('all-gather', bytes) + v.collectiveSeconds('reduce-scatter', bytes);
      expect(zero3 / ddp).toBeGreaterThan(1.5 * 0.95);
      expect(zero3 / ddp).toBeLessThan(1.5 * 1.05);
    }
  });

  it('with NVLink SHARP the all-reduce gets cheaper than the ring, so the ratio grows (what the book must say)', () => {
    const v = new VirtualClocks(clusterShape('h100-ndr', 1, 8));
    const bytes = 2 * 1.3e9;
    const ratio =
      (2 * v.collectiveSeconds('all-gather', bytes) +
        v.collectiveSeconds('reduce-scatter', bytes)) /
      v.collectiveSeconds('all-reduce', bytes);
    expect(ratio).toBeGreaterThan(1.5 * 1.05);
  });
});

describe('virtual clocks: stragglers and faults', () => {
  const computeBound = { overlap: true, backward: 0.2, bucketBytes: 1e6 };

  it('a 2× slower rank makes a synchronous step about 2× slower for everyone', () => {
    const stepTime = (plan: FaultPlan) => {
      const v = new VirtualClocks(shape, plan);
      ddpStep(v, computeBound);
      return Math.max(...Array.from({ length: v.world }, (_, r) => v.report(r).clock));
    };
    const fast = stepTime({});
    const slow = stepTime({ slowdown: { 5: 2 } });
    expect(slow / fast).toBeGreaterThan(1.9);
    expect(slow / fast).toBeLessThan(2.05);
    const v = new VirtualClocks(shape, { slowdown: { 5: 2 } });
    ddpStep(v, computeBound);
    // The fast ranks spend the difference waiting inside the last all-reduce.
    expect(v.report(0).clock).toBeCloseTo(v.report(5).clock, 12);
    expect(v.report(0).exposedCommSeconds).toBeGreaterThan(0.14);
  });

  it('jitter is seeded, bounded and stretches compute only', () => {
    const v = new VirtualClocks(clusterShape('h100-ndr', 1, 4), {
      jitter: { amplitude: 0.25, seed: 1 },
    });
    const spans = Array.from({ length: 50 }, () => v.compute(2, 1));
    for (const s of spans) {
      expect(s.end - s.start).toBeGreaterThanOrEqual(1);
      expect(s.end - s.start).toBeLessThan(1.25);
    }
    expect(new Set(spans.map((s) => s.end - s.start)).size).toBeGreaterThan(40);
  });

  it('a rank dead at step k makes the next collective time out, naming the ranks that never arrived', () => {
    const v = new VirtualClocks(shape, {
      deaths: [
        { rank: 3, atStep: 1 },
        { rank: 12, atStep: 1 },
      ],
      collectiveTimeoutSeconds: 30,
    });
    ddpStep(v, { ...computeBound, step: 0 });
    expect(() => ddpStep(v, { ...computeBound, step: 1 })).toThrow(CollectiveTimeoutError);
    const err = (() => {
      try {
        v.wait({ key: 's1b0', rank: 0 });
      } catch (e) {
        return e as CollectiveTimeoutError;
      }
      throw new Error('wait() returned on a collective with dead members');
    })();
    expect(err.missingRanks).toEqual([3, 12]);
    expect(err.message).toMatch(/ranks 3, 12 never arrived/);
    // Rank 0's watchdog fires 30 s after it issued the first bucket of step 1.
    const issued = v.timeline.filter((t) => t.rank === 0 && t.label === 'backward 0').at(-1)!.end;
    expect(err.atSeconds).toBeCloseTo(issued + 30, 9);
  });

  it('a rank later than the timeout makes the others time out, naming it; the late rank itself does not', () => {
    const v = new VirtualClocks(clusterShape('h100-ndr', 1, 4), { collectiveTimeoutSeconds: 60 });
    v.compute(2, 100);
    const hs = [0, 1, 2, 3].map((r) => v.issue(r, { key: 'late', kind: 'all-reduce', bytes: 1e6 }));
    expect(() => v.wait(hs[0]!)).toThrow(
      /collective late timed out after 60 s of virtual time: rank 2 never arrived/,
    );
    expect(v.wait(hs[2]!)).toBeGreaterThan(100);
  });

  it('jitter can be limited to some ranks', () => {
    const v = new VirtualClocks(clusterShape('h100-ndr', 1, 4), {
      jitter: { amplitude: 0.5, seed: 3, ranks: [1] },
    });
    expect(v.compute(0, 1).end).toBe(1);
    expect(v.compute(1, 1).end).toBeGreaterThan(1);
    expect(
      () =>
        new VirtualClocks(clusterShape('h100-ndr', 1, 4), {
          jitter: { amplitude: 0.5, seed: 3, ranks: [4] },
        }),
    ).toThrow(/outside a world of 4/);
  });

  it('waiting on a collective whose members are alive but not there yet is an error, not a hang', () => {
    const v = new VirtualClocks(clusterShape('h100-ndr', 1, 2));
    const h = v.issue(0, { key: 'z', kind: 'broadcast', bytes: 10 });
    expect(() => v.wait(h)).toThrow(/still waiting for rank\(s\) 1/);
    expect(() => v.issue(1, { key: 'z', kind: 'broadcast', bytes: 11 })).toThrow(
      /others called broadcast of 10 B/,
    );
  });

  it('rejects bad plans', () => {
    expect(() => new VirtualClocks(shape, { slowdown: { 99: 2 } })).toThrow(
      /outside a world of 16/,
    );
    expect(() => new VirtualClocks(shape, { slowdown: { 1: 0.5 } })).toThrow(/≥ 1/);
  });
});

describe('RankClock: one rank’s clock, for a worker that shares only arrival times', () => {
  it('gives every member the same end from the same arrivals, whatever order they are read in', async () => {
    const { RankClock, collectiveEnd } =
      await import('../../../playground/simulation/rank-clock.ts');
    const clocks = [new RankClock(0), new RankClock(1, { slowdown: 2 })];
    clocks[0]!.charge(1e-3);
    clocks[1]!.charge(1e-3);
    const arrivals = clocks.map((c) => c.arrive(c.now));
    expect(arrivals).toEqual([1e-3, 2e-3]);
    const end = collectiveEnd(arrivals, 5e-4);
    expect(collectiveEnd([...arrivals].reverse(), 5e-4)).toBe(end);
    clocks.forEach((c, r) => c.finish(arrivals[r]!, end, 'all-reduce', 5e-4));
    // The next collective on rank 0 queues behind the first even though its compute is idle.
    expect(clocks[0]!.arrive(clocks[0]!.now)).toBe(end);
    expect(clocks[0]!.wait(end)).toBe(end);
    expect(clocks[0]!.report()).toEqual({
      rank: 0,
      clock: end,
      computeSeconds: 1e-3,
      commSeconds: 5e-4,
      exposedCommSeconds: end - 1e-3,
    });
    expect(() => collectiveEnd([], 1)).toThrow(/at least one arrival/);
  });
});
