import { beforeAll, describe, expect, it } from 'vitest';
import { maxParamDiff } from './reference-json.ts';
import { PRELUDE, runRanks } from './run-ranks.ts';
import { singleDeviceHistory } from './single-device-runs.ts';

interface Rec {
  name: string;
  average: 'rows' | 'ranks';
  rows: number;
  steps: Record<string, number[]>[];
}

// Ranks hold 6, 5 and 5 of the 16 reference rows.
const program = `${PRELUDE}
const { x, y } = ranks.referenceData();
const rows = ranks.unequalShards([6, 5, 5])[dist.rank];
const xs = tf.gather(x, rows);
const ys = tf.gather(y, rows);
const makers = { ddp: (m, o) => ranks.DDP(m, o), zero2: (m, o) => ranks.ZeRO(m, { ...o, stage: 2 }), zero3: (m, o) => ranks.ZeRO(m, { ...o, stage: 3 }) };
for (const [name, make] of Object.entries(makers)) {
  for (const average of ['rows', 'ranks']) {
    const trainer = await make(ranks.referenceModel(), { optimizer: new ranks.SGD({ lr: ranks.REFERENCE_MLP.lr.sgd }), average });
    const steps = [];
    for (let s = 0; s < ranks.REFERENCE_MLP.steps; s++) {
      await trainer.trainStep(xs, ys);
      steps.push(plain(await trainer.snapshot()));
    }
    report({ name, average, rows: rows.length, steps });
  }
}
`;

describe('unequal shards (6/5/5 rows on 3 ranks)', () => {
  let records: Rec[][] = [];
  let single: Record<string, number[]>[] = [];
  beforeAll(async () => {
    single = (await singleDeviceHistory('sgd')).params;
    records = await runRanks<Rec>(program, 3);
  }, 240_000);

  it('ranks really hold 6, 5 and 5 rows', () => {
    expect(records.map((r) => r[0]!.rows)).toEqual([6, 5, 5]);
  });

  for (const name of ['ddp', 'zero2', 'zero3']) {
    it(`${name}: weighting each shard by |B_i|/|B| matches full-batch training to 1e-5`, () => {
      for (const rank of records) {
        const run = rank.find((r) => r.name === name && r.average === 'rows')!;
        run.steps.forEach((p, s) => expect(maxParamDiff(p, single[s]!)).toBeLessThan(1e-5));
      }
    });

    it(`${name}: plain all_reduce(SUM)/world_size of shard means does not`, () => {
      const run = records[0]!.find((r) => r.name === name && r.average === 'ranks')!;
      const off = maxParamDiff(run.steps.at(-1)!, single.at(-1)!);
      expect(off).toBeGreaterThan(1e-3);
    });
  }
});
