import { beforeAll, describe, expect, it } from 'vitest';
import { maxParamDiff } from './reference-json.ts';
import { PRELUDE, runRanks } from './run-ranks.ts';
import { singleDeviceHistory } from './single-device-runs.ts';

interface Rec {
  name: string;
  kind: 'sgd' | 'adam';
  micro: number;
  steps: Record<string, number[]>[];
}

// Each rank's 8 rows are fed as 4 micro-batches of 2: three inside noSync, the last one syncs.
const program = `${PRELUDE}
const { x, y } = ranks.referenceData();
const rows = new ranks.DistributedSampler(16, { numReplicas: dist.worldSize, rank: dist.rank, shuffle: false }).indices();
const k = 4;
const per = rows.length / k;
const micro = Array.from({ length: k }, (_, i) => rows.slice(i * per, (i + 1) * per));
const makers = { ddp: (m, o) => ranks.DDP(m, o), zero1: (m, o) => ranks.ZeRO(m, { ...o, stage: 1 }), zero2: (m, o) => ranks.ZeRO(m, { ...o, stage: 2 }), 'fsdp-FULL_SHARD': (m, o) => ranks.FSDP(m, { ...o, shardingStrategy: 'FULL_SHARD' }) };
for (const [name, make] of Object.entries(makers)) {
  for (const kind of ['sgd', 'adam']) {
    const optimizer = kind === 'sgd' ? new ranks.SGD({ lr: ranks.REFERENCE_MLP.lr.sgd }) : new ranks.Adam({ lr: ranks.REFERENCE_MLP.lr.adam });
    const trainer = await make(ranks.referenceModel(), { optimizer });
    const steps = [];
    for (let s = 0; s < ranks.REFERENCE_MLP.steps; s++) {
      for (let i = 0; i < k; i++) {
        const xb = tf.gather(x, micro[i]);
        const yb = tf.gather(y, micro[i]);
        if (i < k - 1) await trainer.noSync(() => trainer.backward(xb, yb));
        else await trainer.backward(xb, yb);
        tf.dispose([xb, yb]);
      }
      await trainer.step();
      steps.push(plain(await trainer.snapshot()));
    }
    report({ name, kind, micro: per, steps });
  }
}
`;

describe('gradient accumulation with noSync() over k = 4 micro-batches on 2 ranks', () => {
  let records: Rec[][] = [];
  const single: Record<string, Record<string, number[]>[]> = {};
  beforeAll(async () => {
    single.sgd = (await singleDeviceHistory('sgd')).params;
    single.adam = (await singleDeviceHistory('adam')).params;
    records = await runRanks<Rec>(program, 2);
  }, 240_000);

  for (const name of ['ddp', 'zero1', 'zero2', 'fsdp-FULL_SHARD']) {
    for (const kind of ['sgd', 'adam'] as const) {
      it(`${name} + ${kind}: 4 micro-batches of 2 rows equal one 16-row batch (1e-5)`, () => {
        for (const rank of records) {
          const run = rank.find((r) => r.name === name && r.kind === kind)!;
          expect(run.micro).toBe(2);
          run.steps.forEach((p, s) =>
            expect(maxParamDiff(p, single[kind]![s]!)).toBeLessThan(1e-5),
          );
        }
      });
    }
  }
});
