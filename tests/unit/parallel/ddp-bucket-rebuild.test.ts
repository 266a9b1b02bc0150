import { beforeAll, describe, expect, it } from 'vitest';
import { PRELUDE, runRanks } from './run-ranks.ts';

interface Rec {
  findUnused: boolean;
  buckets: number[][][];
  rebuilt: boolean[];
  bucketCalls: number[];
  params: Record<string, number[]>;
}

// A 4-layer MLP (32×32 weights: 4 KiB each) with 4 KiB buckets: 3 steps, recording the bucket table and the bucket all-reduces of each.
const program = `${PRELUDE}
const rng = new ranks.Lcg(11 + dist.rank);
const x = tf.tensor2d(rng.fill(8 * 32), [8, 32]);
const y = tf.tensor2d(rng.fill(8 * 32), [8, 32]);
for (const findUnused of [false, true]) {
  const ddp = await ranks.DDP(ranks.mlp([32, 32, 32, 32, 32], { seed: 5 }), { optimizer: new ranks.SGD({ lr: 0.05 }), bucketCapMB: 1 / 256, findUnusedParameters: findUnused });
  const rec = { findUnused, buckets: [ddp.buckets.map((b) => b.params)], rebuilt: [ddp.bucketsRebuilt], bucketCalls: [] };
  for (let s = 0; s < 3; s++) {
    ddp.clearTimeline();
    await ddp.trainStep(x, y);
    rec.bucketCalls.push(ddp.timeline.filter((t) => t.kind === 'allReduce' && t.label.startsWith('bucket')).length);
    rec.buckets.push(ddp.buckets.map((b) => b.params));
    rec.rebuilt.push(ddp.bucketsRebuilt);
  }
  report({ ...rec, params: plain(await ddp.snapshot()) });
}
`;

describe('DDP buckets: one at construction, rebuilt once in gradient-arrival order (2 ranks)', () => {
  let recs: Rec[] = [];
  beforeAll(async () => {
    recs = (await runRanks<Rec>(program, 2))[0]!;
  }, 240_000);

  it('find_unused_parameters=False: one bucket for the first iteration, then rebuilt in arrival order before the second', () => {
    const r = recs.find((x) => !x.findUnused)!;
    expect(r.buckets[0]).toEqual([[0, 1, 2, 3, 4, 5, 6, 7]]);
    expect(r.buckets[1]).toEqual(r.buckets[0]);
    expect(r.bucketCalls[0]).toBe(1);
    // Walking bias before weight from the last layer, each bucket closes once its weight reaches 4 KiB; no small first bucket, as the cap was given.
    expect(r.buckets[2]).toEqual([
      [7, 6],
      [5, 4],
      [3, 2],
      [1, 0],
    ]);
    expect(r.rebuilt).toEqual([false, false, true, true]);
    expect(r.bucketCalls.slice(1)).toEqual([4, 4]);
    expect(r.buckets[3]).toEqual(r.buckets[2]);
  });

  it('find_unused_parameters=True: buckets from registration order, reversed, never rebuilt', () => {
    const r = recs.find((x) => x.findUnused)!;
    expect(r.buckets[0]).toEqual([[7], [5, 6], [3, 4], [1, 2], [0]]);
    expect(r.rebuilt).toEqual([false, false, false, false]);
    for (const b of r.buckets) expect(b).toEqual(r.buckets[0]);
    expect(r.bucketCalls).toEqual([
      r.buckets[0]!.length,
      r.buckets[0]!.length,
      r.buckets[0]!.length,
    ]);
  });

  it('the bucket layout does not change the result', () => {
    const [a, b] = [recs[0]!.params, recs[1]!.params];
    for (const k of Object.keys(a))
      a[k]!.forEach((v, i) => expect(Math.abs(v - b[k]![i]!)).toBeLessThan(1e-6));
  });
});
