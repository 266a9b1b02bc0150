import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from './harness/world-harness.ts';

type Seen =
  | { shape: number[]; dtype: string; values: number[]; isWork: boolean; inputsAlive: boolean }
  | { value: null; isWork: boolean; inputsAlive: boolean };

describe('dist on tfjs tensors, world of 3', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await startWorld(3, { withTensors: true });
  });
  afterAll(async () => {
    await w.close();
  });
  const call = (method: string, args: (rank: number) => unknown[]) =>
    w.values<Seen>('tensorCall', (r: number) => ({ method, args: args(r) }));

  it('allReduce keeps shape and dtype, returns a new tensor and leaves the input alive', async () => {
    const out = await call('allReduce', (r) => [
      { tensor: [r, r + 1, r + 2, r + 3, r + 4, r + 5], shape: [2, 3], dtype: 'int32' },
      { op: 'max' },
    ]);
    for (const o of out)
      expect(o).toEqual({
        shape: [2, 3],
        dtype: 'int32',
        values: [2, 3, 4, 5, 6, 7],
        isWork: false,
        inputsAlive: true,
      });
  });

  it('{async: true} returns a Work; avg on float32', async () => {
    const out = await call('allReduce', (r) => [
      { tensor: [r, 1], shape: [2] },
      { op: 'avg', async: true },
    ]);
    for (const o of out) expect(o).toMatchObject({ values: [1, 1], isWork: true });
  });

  it("reduceScatter returns this rank's 1-D chunk (torch.tensor_split sizes)", async () => {
    const out = await call('reduceScatter', (r) => [
      { tensor: [1, 2, 3, 4, 5, 6, 7].map((x) => x * (r + 1)), shape: [7] },
    ]);
    expect(out.map((o) => ('values' in o ? o.values : null))).toEqual([
      [6, 12, 18],
      [24, 30],
      [36, 42],
    ]);
    expect(out.map((o) => ('shape' in o ? o.shape : null))).toEqual([[3], [2], [2]]);
  });

  it('allGather stacks along a new leading axis', async () => {
    const out = await call('allGather', (r) => [{ tensor: [r, -r], shape: [1, 2] }]);
    for (const o of out)
      expect(o).toMatchObject({ shape: [3, 1, 2], values: [0, -0, 1, -1, 2, -2] });
  });

  it('broadcast from src, of any shape incl. size 0', async () => {
    const out = await call('broadcast', (r) => [
      { tensor: [10 * r, 10 * r + 1], shape: [2, 1] },
      { src: 2 },
    ]);
    for (const o of out) expect(o).toMatchObject({ shape: [2, 1], values: [20, 21] });
    const empty = await call('broadcast', () => [{ tensor: [], shape: [0, 4] }, { src: 1 }]);
    for (const o of empty) expect(o).toMatchObject({ shape: [0, 4], values: [] });
  });

  it('reduce: result on dst, a copy of the input elsewhere', async () => {
    const out = await call('reduce', (r) => [
      { tensor: [r + 1], shape: [] },
      { dst: 1, op: 'prod' },
    ]);
    expect(out.map((o) => ('values' in o ? o.values : null))).toEqual([[1], [6], [3]]);
    expect(out.map((o) => ('shape' in o ? o.shape : null))).toEqual([[], [], []]);
  });

  it('scatter: src gives [n, ...], others a tensor of the slice shape or null with {shape}', async () => {
    const out = await call('scatter', (r) =>
      r === 0
        ? [{ tensor: [1, 2, 3, 4, 5, 6], shape: [3, 2] }, { src: 0 }]
        : r === 1
          ? [{ tensor: [0, 0], shape: [2] }, { src: 0 }]
          : [null, { src: 0, shape: [2] }],
    );
    expect(out.map((o) => ('values' in o ? o.values : null))).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
  });

  it('gather: dst gets [n, ...], the others null', async () => {
    const out = await call('gather', (r) => [{ tensor: [r], shape: [1] }, { dst: 0 }]);
    expect(out[0]).toMatchObject({ shape: [3, 1], values: [0, 1, 2] });
    expect(out[1]).toMatchObject({ value: null });
    expect(out[2]).toMatchObject({ value: null });
  });

  it('barrier resolves to undefined; send/recv round a ring', async () => {
    const b = await call('barrier', () => [{ async: true }]);
    for (const o of b) expect(o).toMatchObject({ value: null, isWork: true });
    const sends = w.values<Seen>('tensorCall', (r: number) => ({
      method: 'send',
      args: [{ tensor: [r, r * r], shape: [2], dtype: 'int32' }, { dst: (r + 1) % 3 }],
    }));
    const recvs = await w.values<Seen>('tensorCall', (r: number) => ({
      method: 'recv',
      args: [[2, 1], { src: (r + 2) % 3, dtype: 'int32' }],
    }));
    await sends;
    expect(recvs.map((o) => ('values' in o ? o.values : null))).toEqual([
      [2, 4],
      [0, 0],
      [1, 1],
    ]);
    for (const o of recvs) expect(o).toMatchObject({ shape: [2, 1], dtype: 'int32' });
  });

  it('sub-groups through dist.newGroup', async () => {
    const out = await call('allReduce', (r) => [
      { tensor: [r + 1], shape: [1] },
      { group: r < 2 ? [0, 1] : [2] },
    ]);
    expect(out.map((o) => ('values' in o ? o.values : null))).toEqual([[3], [3], [3]]);
  });
});

describe('async handles overlap compute with communication', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await startWorld(2, { withTensors: true });
  });
  afterAll(async () => {
    await w.close();
  });

  it('rank 0 keeps computing while its all-reduce waits for a late rank 1, then gets the right sum', async () => {
    type R = {
      computeSteps: number;
      completedDuringCompute: boolean;
      pendingAfterCompute: boolean;
      completedAfterWait: boolean;
      first: number;
      inputKept: boolean;
      len: number;
    };
    const out = await w.values<R>('overlap', { length: 100_000, lateRank: 1, lateMs: 600 });
    expect(out[0]!.computeSteps).toBeGreaterThan(5);
    expect(out[0]!.completedDuringCompute).toBe(false);
    expect(out[0]!.pendingAfterCompute).toBe(true);
    for (const o of out)
      expect(o).toMatchObject({
        completedAfterWait: true,
        first: 3,
        inputKept: true,
        len: 100_000,
      });
  });
});
