import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clusterShape } from '../../../playground/simulation/cluster-shape.ts';
import { VirtualClocks, type WorkHandle } from '../../../playground/simulation/virtual-clock.ts';

type Op = { kind: 'compute'; seconds: number } | { kind: 'collective'; bytes: number };

/** The same per-rank programs, driven in one of two interleavings; returns every rank's report. */
function drive(world: number, programs: Op[][], interleave: 'round-robin' | 'rank-by-rank') {
  const v = new VirtualClocks(clusterShape('a100-hdr', 2, world / 2), {
    jitter: { amplitude: 0.2, seed: 11 },
  });
  const pendingWaits: WorkHandle[][] = programs.map(() => []);
  const cursor = new Map<number, number>();
  const seq = new Map<number, number>();
  const step = (r: number) => {
    const i = cursor.get(r) ?? 0;
    cursor.set(r, i + 1);
    const op = programs[r]![i]!;
    if (op.kind === 'compute') v.compute(r, op.seconds);
    else {
      const k = seq.get(r) ?? 0;
      seq.set(r, k + 1);
      pendingWaits[r]!.push(v.issue(r, { key: `c${k}`, kind: 'all-reduce', bytes: op.bytes }));
    }
  };
  const length = programs[0]!.length;
  if (interleave === 'round-robin')
    for (let i = 0; i < length; i++) for (let r = 0; r < world; r++) step(r);
  else for (let r = world - 1; r >= 0; r--) for (let i = 0; i < length; i++) step(r);
  // Waits come after every rank has issued everything, as a real cluster reaches them.
  for (let r = 0; r < world; r++) for (const h of pendingWaits[r]!) v.wait(h);
  return Array.from({ length: world }, (_, r) => v.report(r));
}

describe('virtual clocks: properties', () => {
  it('reports do not depend on the order ranks are driven in, and no rank ends before its own work', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('compute' as const),
        seconds: fc.double({ min: 0, max: 0.01, noNaN: true }),
      }),
      fc.record({
        kind: fc.constant('collective' as const),
        bytes: fc.integer({ min: 1, max: 1 << 26 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(2, 4, 8),
        fc.array(op, { minLength: 1, maxLength: 12 }),
        fc.array(fc.double({ min: 0, max: 0.01, noNaN: true }), { minLength: 8, maxLength: 8 }),
        (world, shared, skew) => {
          // Collectives line up across ranks; compute differs per rank by a skew.
          const programs = Array.from({ length: world }, (_, r) =>
            shared.map((o) => (o.kind === 'compute' ? { ...o, seconds: o.seconds + skew[r]! } : o)),
          );
          const a = drive(world, programs, 'round-robin');
          const b = drive(world, programs, 'rank-by-rank');
          expect(b).toEqual(a);
          for (const rep of a) {
            expect(rep.clock).toBeGreaterThanOrEqual(rep.computeSeconds - 1e-12);
            expect(rep.exposedCommSeconds).toBeGreaterThanOrEqual(0);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
