import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ALL_REDUCE_ALGORITHMS,
  COLLECTIVE_KINDS,
  DTYPES,
  REDUCE_OPS,
  type AllReduceAlgorithm,
  type Dtype,
  type ReduceOp,
} from '../../../playground/contract/protocol.ts';
import { startWorld, type TestWorld } from './harness/world-harness.ts';
import { inputFor, type Arr } from './harness/reference.ts';
import { callAndExpected, type CallSpec } from './harness/expected.ts';

const SIZES = [2, 3, 5, 7];

describe('property: any collective, size, op, dtype and group equals the reference', () => {
  const worlds = new Map<number, TestWorld>();
  // Small regions (16 KB a rank) so random sizes also cross round boundaries.
  beforeAll(async () => {
    for (const n of SIZES) worlds.set(n, await startWorld(n, { arenaBytes: n * 16384 }));
  });
  afterAll(async () => {
    for (const w of worlds.values()) await w.close();
  });

  it('holds for 150 random calls', async () => {
    const arbitrary = fc.record({
      n: fc.constantFrom(...SIZES),
      kind: fc.constantFrom<CallSpec['kind']>(...COLLECTIVE_KINDS),
      op: fc.constantFrom<ReduceOp>(...REDUCE_OPS),
      algorithm: fc.constantFrom<AllReduceAlgorithm>(...ALL_REDUCE_ALGORITHMS),
      dtype: fc.constantFrom<Dtype>(...DTYPES),
      length: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 20_000 })),
      rootSeed: fc.nat(),
      groupMask: fc.nat(),
      salt: fc.nat({ max: 1000 }),
    });
    await fc.assert(
      fc.asyncProperty(arbitrary, async (c) => {
        const w = worlds.get(c.n)!;
        let group = Array.from({ length: c.n }, (_, r) => r).filter((r) => (c.groupMask >> r) & 1);
        if (group.length === 0) group = [c.groupMask % c.n];
        const spec: CallSpec = {
          kind: c.kind,
          op: c.op,
          algorithm: c.algorithm,
          root: group[c.rootSeed % group.length],
          group,
        };
        const inputs: Arr[] = Array.from({ length: c.n }, (_, r) =>
          inputFor(r, c.length, c.dtype, c.op, c.salt),
        );
        const plans = Array.from({ length: c.n }, (_, r) =>
          group.includes(r) ? callAndExpected(spec, inputs, r, c.n) : null,
        );
        const got = await w.values<(Arr | null | undefined)[]>('calls', (r: number) =>
          plans[r] ? [plans[r]!.call] : [],
        );
        got.forEach((g, r) => {
          const plan = plans[r];
          if (!plan) return;
          const exp = plan.expected;
          if (exp == null) expect(g[0] ?? null).toBeNull();
          else expect(Array.from(g[0] as Arr)).toEqual(Array.from(exp));
        });
      }),
      { numRuns: 150 },
    );
  });
});
