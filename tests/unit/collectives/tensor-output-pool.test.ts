import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startWorld, type TestWorld } from './harness/world-harness.ts';
import type { PoolOutcome, PoolStep } from './harness/pool-program.ts';

const LENGTHS = [5, 8, 33]; // few sizes, so freed arrays are taken again

const step: fc.Arbitrary<PoolStep> = fc.oneof(
  fc.record({
    op: fc.constant('fresh' as const),
    len: fc.constantFrom(...LENGTHS),
    async: fc.boolean(),
  }),
  fc.record({ op: fc.constant('chain' as const), pick: fc.nat(), async: fc.boolean() }),
  fc.record({ op: fc.constant('gather' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('wait' as const) }),
  fc.record({ op: fc.constant('dispose' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('dispose' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('slice' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('reshape' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('clone' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('read' as const), pick: fc.nat(), dispose: fc.boolean() }),
);

/** A result disposed and its array taken again, then a result read out (and kept alive). */
const OPENING: PoolStep[] = [
  { op: 'fresh', len: 8, async: false },
  { op: 'dispose', pick: 0 },
  { op: 'fresh', len: 8, async: false },
  { op: 'read', pick: 0, dispose: false },
];

describe('pooled result arrays (CPU backend), world of 3', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await startWorld(3, { withTensors: true });
  });
  afterAll(async () => {
    await w.close();
  });

  it('a tensor (or its views, clones, reshapes) is never overwritten while alive, nor an array read out of one', async () => {
    const before = (await w.values<PoolOutcome>('poolProgram', { steps: [] }))[0]!;
    let last: PoolOutcome[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (random) => {
        // Every run opens with a reuse and a read-out (random sequences alone are often too short to have
        // either: a CI run once went 60 runs without a read-out), then goes on at random from there.
        const steps: PoolStep[] = [...OPENING, ...random];
        last = await w.values<PoolOutcome>('poolProgram', { steps });
        for (const o of last) expect(o.error).toBeNull();
      }),
      { numRuns: 60 },
    );
    // The property is not vacuous: arrays were taken again, and reads took some out of the pool (counters only grow).
    for (const o of last) {
      expect(o.reused).toBeGreaterThanOrEqual(before.reused + 60);
      expect(o.escaped).toBeGreaterThanOrEqual(before.escaped + 60);
    }
  });

  it('reuses a disposed result, and never one that was read out', async () => {
    const run = (steps: PoolStep[]) => w.values<PoolOutcome>('poolProgram', { steps });
    const before = (await run([]))[0]!;
    const reused = await run([
      { op: 'fresh', len: 8, async: false },
      { op: 'dispose', pick: 0 },
      { op: 'fresh', len: 8, async: false },
    ]);
    for (const o of reused) {
      expect(o.error).toBeNull();
      expect(o.reused).toBeGreaterThan(before.reused);
    }
    const read = await run([
      { op: 'fresh', len: 8, async: false },
      { op: 'read', pick: 0, dispose: true },
      { op: 'fresh', len: 8, async: false },
      { op: 'fresh', len: 8, async: false },
    ]);
    for (const o of read) expect(o).toMatchObject({ error: null, escaped: before.escaped + 1 });
  });
});

describe('pooled result arrays (WASM backend, which copies them into its heap), world of 2', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await startWorld(2, { withTensors: true, backend: 'wasm' });
  });
  afterAll(async () => {
    await w.close();
  });

  it('takes an array again as soon as its tensor exists, and every result stays right', async () => {
    let last: PoolOutcome[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), async (steps) => {
        last = await w.values<PoolOutcome>('poolProgram', { steps });
        for (const o of last) expect(o.error).toBeNull();
      }),
      { numRuns: 20 },
    );
    for (const o of last) expect(o).toMatchObject({ escaped: 0 });
  });

  it('a second result of the same size reuses the first array while both tensors live', async () => {
    const run = (steps: PoolStep[]) => w.values<PoolOutcome>('poolProgram', { steps });
    const before = (await run([]))[0]!;
    const out = await run([
      { op: 'fresh', len: 8, async: false },
      { op: 'fresh', len: 8, async: false },
      { op: 'read', pick: 0, dispose: false },
      { op: 'fresh', len: 8, async: false },
    ]);
    for (const o of out) expect(o).toMatchObject({ error: null, reused: before.reused + 2 });
  });
});
