import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from './harness/world-harness.ts';
import { inputFor, reduceRef, type Arr } from './harness/reference.ts';
import { callAndExpected, type CallSpec } from './harness/expected.ts';

describe('sub-groups on a world of 6', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await startWorld(6);
  });
  afterAll(async () => {
    await w.close();
  });

  /** Each rank runs the calls of the groups it belongs to, in the order listed. */
  async function check(specs: (CallSpec & { length: number })[]) {
    const inputs = specs.map((s, k) =>
      Array.from({ length: 6 }, (_, r) => inputFor(r, s.length, 'float32', s.op ?? 'none', k)),
    );
    const plans = Array.from({ length: 6 }, (_, rank) =>
      specs.map((s, k) =>
        s.group!.includes(rank) ? callAndExpected(s, inputs[k]!, rank, 6) : null,
      ),
    );
    const got = await w.values<(Arr | null)[]>('calls', (rank: number) =>
      plans[rank]!.filter(Boolean).map((p) => p!.call),
    );
    got.forEach((values, rank) => {
      const mine = plans[rank]!.filter(Boolean);
      expect(values.length).toBe(mine.length);
      values.forEach((v, i) => {
        const exp = mine[i]!.expected;
        if (exp) expect(Array.from(v!), `rank ${rank} call ${i}`).toEqual(Array.from(exp));
      });
    });
  }

  it('disjoint groups run at the same time, each with its own sequence', async () => {
    await check([
      { kind: 'allReduce', op: 'sum', algorithm: 'ring', group: [0, 1, 2], length: 1001 },
      { kind: 'allReduce', op: 'max', algorithm: 'two-shot', group: [3, 4, 5], length: 513 },
      { kind: 'allGather', group: [3, 4, 5], length: 7 },
      { kind: 'broadcast', root: 2, group: [0, 1, 2], length: 9 },
      { kind: 'reduceScatter', op: 'min', group: [0, 2, 4], length: 100 },
    ]);
  });

  it('overlapping groups, then the whole world, keep their order', async () => {
    await check(
      [
        { kind: 'allReduce', op: 'sum', algorithm: 'ring', group: [1, 3, 5], length: 300 },
        { kind: 'reduce', op: 'sum', root: 4, group: [0, 4], length: 33 },
        { kind: 'gather', root: 5, group: [1, 3, 5], length: 5 },
        { kind: 'scatter', root: 0, group: [0, 4], length: 3 },
        {
          kind: 'allReduce',
          op: 'avg',
          algorithm: 'two-shot',
          group: [0, 1, 2, 3, 4, 5],
          length: 64,
        },
        { kind: 'barrier', group: [2, 3] },
      ].map((s) => ({ length: 0, ...s }) as CallSpec & { length: number }),
    );
  });

  it('a group listed in a different order, or by members only, is the same group', async () => {
    const out = await w.values<Arr[]>('calls', (rank: number) =>
      rank < 2
        ? [
            {
              kind: 'allReduce',
              input: Float32Array.of(rank + 1),
              group: rank === 0 ? [0, 1] : [1, 0],
            },
          ]
        : [],
    );
    expect(Array.from(out[0]![0]!)).toEqual([3]);
    expect(Array.from(out[1]![0]!)).toEqual([3]);
  });
});

describe('point-to-point on a world of 4', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await startWorld(4, { mailboxBytes: 4096 });
  });
  afterAll(async () => {
    await w.close();
  });

  it('a ring all-reduce built from send/recv equals the reference (messages longer than the 4 KB mailbox)', async () => {
    const inputs = [0, 1, 2, 3].map((r) => inputFor(r, 10_007, 'float32', 'sum'));
    const got = await w.values<Float32Array>('ringFromSendRecv', (r: number) => inputs[r]);
    const ref = reduceRef(inputs, 'sum');
    for (const g of got) expect(Array.from(g)).toEqual(Array.from(ref));
  });

  it('several queued messages arrive in order, each intact', async () => {
    const got = await w.values<Int32Array[]>('p2pStream', { length: 3000, count: 5 });
    got.forEach((msgs, rank) => {
      const from = (rank + 3) % 4;
      msgs.forEach((m, k) =>
        expect(Array.from(m.subarray(0, 3))).toEqual([
          from * 1000 + k * 7,
          from * 1000 + k * 7 + 1,
          from * 1000 + k * 7 + 2,
        ]),
      );
      expect(msgs.map((m) => m.length)).toEqual([3000, 3000, 3000, 3000, 3000]);
    });
  });
});
