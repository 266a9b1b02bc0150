import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReduceOp } from '../../../playground/collectives/dist-api.ts';
import { startWorld, type TestWorld } from './harness/world-harness.ts';
import { inputFor, type Arr } from './harness/reference.ts';
import { callAndExpected, type CallSpec } from './harness/expected.ts';

const OPS: ReduceOp[] = ['sum', 'avg', 'max', 'min', 'prod'];
const DTYPES = ['float32', 'int32'] as const;

/** Every collective, op, dtype and awkward size, as one batch of calls per world. */
function specsFor(n: number): { spec: CallSpec; length: number; dtype: 'float32' | 'int32' }[] {
  const sizes = [0, 1, n + 1, 1000, 4099];
  const out: { spec: CallSpec; length: number; dtype: 'float32' | 'int32' }[] = [];
  for (const dtype of DTYPES) {
    for (const length of sizes) {
      for (const op of OPS) {
        for (const algorithm of ['ring', 'two-shot', 'auto'] as const)
          out.push({ spec: { kind: 'allReduce', op, algorithm }, length, dtype });
        out.push({ spec: { kind: 'reduceScatter', op }, length, dtype });
        out.push({ spec: { kind: 'reduce', op, root: (length + 1) % n }, length, dtype });
      }
      out.push({ spec: { kind: 'allGather' }, length, dtype });
      out.push({ spec: { kind: 'broadcast', root: n - 1 }, length, dtype });
      out.push({ spec: { kind: 'scatter', root: length % n }, length, dtype });
      out.push({ spec: { kind: 'gather', root: 0 }, length, dtype });
      out.push({ spec: { kind: 'barrier' }, length, dtype });
    }
  }
  return out;
}

function checkBatch(world: TestWorld, inTurn: boolean) {
  const n = world.worldSize;
  const cases = specsFor(n);
  const perRank = Array.from({ length: n }, (_, rank) =>
    cases.map((c, k) =>
      callAndExpected(
        c.spec,
        Array.from({ length: n }, (_, r) => inputFor(r, c.length, c.dtype, c.spec.op ?? 'none', k)),
        rank,
        n,
      ),
    ),
  );
  return world
    .values<(Arr | null | undefined)[]>(inTurn ? 'callsInTurn' : 'calls', (rank: number) =>
      perRank[rank]!.map((x) => x.call),
    )
    .then((results) => {
      results.forEach((got, rank) => {
        got.forEach((value, k) => {
          const { expected } = perRank[rank]![k]!;
          const label = `rank ${rank}, ${JSON.stringify(cases[k]!.spec)} × ${cases[k]!.length} ${cases[k]!.dtype}`;
          if (expected === undefined || expected === null) expect(value ?? null, label).toBeNull();
          else {
            expect(value?.constructor, label).toBe(expected.constructor);
            expect(Array.from(value as Arr), label).toEqual(Array.from(expected));
          }
        });
      });
      return cases.length;
    });
}

for (let n = 1; n <= 8; n++) {
  describe(`every collective vs the reference, world of ${n}`, () => {
    let world: TestWorld;
    beforeAll(async () => {
      world = await startWorld(n);
    });
    afterAll(async () => {
      await world.close();
    });

    it('queued all at once (waits yield to the event loop)', async () => {
      expect(await checkBatch(world, false)).toBeGreaterThan(200);
    });

    it('awaited one at a time (blocking waits)', async () => {
      expect(await checkBatch(world, true)).toBeGreaterThan(200);
    });
  });
}

describe('large payloads chunked through small regions', () => {
  let world: TestWorld;
  // 256 KB regions: a 1M-element (4 MB) payload takes 16+ rounds.
  beforeAll(async () => {
    world = await startWorld(4, { arenaBytes: 4 * 256 * 1024 });
  });
  afterAll(async () => {
    await world.close();
  });

  for (const spec of [
    { kind: 'allReduce', op: 'sum', algorithm: 'ring' },
    { kind: 'allReduce', op: 'avg', algorithm: 'two-shot' },
    { kind: 'reduceScatter', op: 'max' },
    { kind: 'allGather' },
    { kind: 'broadcast', root: 2 },
    { kind: 'reduce', op: 'sum', root: 1 },
    { kind: 'scatter', root: 3 },
    { kind: 'gather', root: 2 },
  ] as CallSpec[]) {
    it(`${spec.kind} of 1M + 3 elements (${spec.op ?? ''} ${spec.algorithm ?? ''})`, async () => {
      const length =
        spec.kind === 'allGather' || spec.kind === 'gather' || spec.kind === 'scatter'
          ? 250_003
          : 1_000_003;
      const inputs = Array.from({ length: 4 }, (_, r) =>
        inputFor(r, length, 'float32', spec.op ?? 'none'),
      );
      const plan = Array.from({ length: 4 }, (_, r) => callAndExpected(spec, inputs, r, 4));
      const got = await world.values<Arr[]>('callsInTurn', (r: number) => [plan[r]!.call]);
      got.forEach((g, r) => {
        const exp = plan[r]!.expected;
        if (exp) {
          expect(g[0]!.length).toBe(exp.length);
          let bad = -1;
          for (let i = 0; i < exp.length; i++)
            if (g[0]![i] !== exp[i]) {
              bad = i;
              break;
            }
          expect(bad, `rank ${r} first wrong element`).toBe(-1);
        } else expect(g[0]).toBeNull();
      });
    });
  }
});

describe('64 MB per rank through the default arena (16 MB regions, 4 rounds)', () => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await startWorld(2);
  });
  afterAll(async () => {
    await world.close();
  });

  for (const algorithm of ['two-shot', 'ring'] as const) {
    it(`${algorithm} all-reduce of 16M float32`, async () => {
      const out = await world.values<{ wrong: number; length: number }>('bigAllReduce', {
        elements: 16 << 20,
        algorithm,
      });
      for (const o of out) expect(o).toEqual({ wrong: 0, length: 16 << 20 });
    });
  }
});
