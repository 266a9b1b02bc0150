import { beforeAll, describe, expect, it } from 'vitest';
import { loadReference, maxParamDiff } from './reference-json.ts';
import { PRELUDE, runRanks } from './run-ranks.ts';
import { singleDeviceHistory, type OptimizerKind } from './single-device-runs.ts';
import { SMALL_BUCKETS, TRAINER_FACTORIES, factoriesSource } from './trainers.ts';

interface RunRecord {
  name: string;
  kind: OptimizerKind;
  steps: Record<string, number[]>[];
}

const program = `${PRELUDE}
const { x, y } = ranks.referenceData();
const rows = new ranks.DistributedSampler(ranks.REFERENCE_MLP.rows, { numReplicas: dist.worldSize, rank: dist.rank, shuffle: false }).indices();
const xs = tf.gather(x, rows);
const ys = tf.gather(y, rows);
const factories = ${factoriesSource()};
for (const [name, make] of Object.entries(factories)) {
  for (const kind of ['sgd', 'adam']) {
    const optimizer = kind === 'sgd' ? new ranks.SGD({ lr: ranks.REFERENCE_MLP.lr.sgd }) : new ranks.Adam({ lr: ranks.REFERENCE_MLP.lr.adam });
    const trainer = await make(ranks.referenceModel(), { optimizer, ...${SMALL_BUCKETS} });
    const steps = [];
    for (let s = 0; s < ranks.REFERENCE_MLP.steps; s++) {
      await trainer.trainStep(xs, ys);
      steps.push(plain(await trainer.snapshot()));
    }
    report({ name, kind, steps });
  }
}
`;

const ref = loadReference();
const single: Record<OptimizerKind, Record<string, number[]>[]> = { sgd: [], adam: [] };

beforeAll(async () => {
  single.sgd = (await singleDeviceHistory('sgd')).params;
  single.adam = (await singleDeviceHistory('adam')).params;
});

describe.each([1, 2, 4])('%i rank(s) on real worker_threads', (worldSize) => {
  let records: RunRecord[][] = [];
  beforeAll(async () => {
    records = await runRanks<RunRecord>(program, worldSize);
  }, 240_000);

  it('every rank reports every configuration', () => {
    for (const rank of records)
      expect(rank.map((r) => `${r.name}/${r.kind}`).sort()).toEqual(
        Object.keys(TRAINER_FACTORIES)
          .flatMap((n) => [`${n}/adam`, `${n}/sgd`])
          .sort(),
      );
  });

  for (const name of Object.keys(TRAINER_FACTORIES)) {
    for (const kind of ['sgd', 'adam'] as const) {
      it(`${name} + ${kind} equals single-device full-batch training after each of 5 steps (1e-5), on every rank`, () => {
        for (const rank of records) {
          const run = rank.find((r) => r.name === name && r.kind === kind)!;
          run.steps.forEach((params, s) =>
            expect(maxParamDiff(params, single[kind][s]!), `rank step ${s + 1}`).toBeLessThan(1e-5),
          );
        }
      });
    }
  }

  it('DDP and ZeRO match the PyTorch JSON (DistributedDataParallel / ZeroRedundancyOptimizer) to 1e-5', () => {
    for (const kind of ['sgd', 'adam'] as const) {
      const pairs: [string, string][] =
        worldSize === 1
          ? [
              ['ddp', `single/${kind}`],
              ['zero1', `single/${kind}`],
              ['zero1-torch', `single/${kind}`],
            ]
          : [
              ['ddp', `ddp-${worldSize}/${kind}`],
              ['zero1', `zero1-${worldSize}/${kind}`],
              ['zero1-torch', `zero1-${worldSize}/${kind}`],
              ['zero2', `zero1-${worldSize}/${kind}`],
              ['zero3', `zero1-${worldSize}/${kind}`],
            ];
      for (const [ours, theirs] of pairs) {
        const run = records[0]!.find((r) => r.name === ours && r.kind === kind)!;
        const torch = ref.runs[theirs]!;
        run.steps.forEach((params, s) =>
          expect(
            maxParamDiff(params, torch[s]!.params),
            `${ours} vs ${theirs} step ${s + 1}`,
          ).toBeLessThan(1e-5),
        );
      }
    }
  });
});
