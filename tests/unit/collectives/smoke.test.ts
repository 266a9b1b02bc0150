import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from './harness/world-harness.ts';
import { inputFor, reduceRef } from './harness/reference.ts';

describe('smoke: all-reduce on 4 worker_threads', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await startWorld(4);
  });
  afterAll(async () => {
    await w.close();
  });

  for (const algorithm of ['ring', 'two-shot'] as const) {
    it(`${algorithm} sums`, async () => {
      const inputs = [0, 1, 2, 3].map((r) => inputFor(r, 1001, 'float32', 'sum'));
      const out = await w.values<Float32Array[]>('callsInTurn', (r: number) => [
        { kind: 'allReduce', input: inputs[r], op: 'sum', algorithm },
      ]);
      const ref = reduceRef(inputs, 'sum');
      for (const o of out) expect(Array.from(o[0]!)).toEqual(Array.from(ref));
    });
  }
});

describe('smoke: dist on tensors, 2 ranks', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await startWorld(2, { withTensors: true });
  });
  afterAll(async () => {
    await w.close();
  });

  it('all-reduces [rank+1, 2·rank] to [3, 2]', async () => {
    const out = await w.values<{ values: number[]; shape: number[] }>(
      'tensorCall',
      (r: number) => ({ method: 'allReduce', args: [{ tensor: [r + 1, 2 * r], shape: [2] }] }),
    );
    for (const o of out) {
      expect(o.values).toEqual([3, 2]);
      expect(o.shape).toEqual([2]);
    }
  });
});
