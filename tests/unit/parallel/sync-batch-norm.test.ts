import { beforeAll, describe, expect, it } from 'vitest';
import { loadReference, maxParamDiff } from './reference-json.ts';
import { PRELUDE, runRanks } from './run-ranks.ts';
import { singleDeviceHistory } from './single-device-runs.ts';

interface Rec {
  batchNorm: 'sync' | 'local';
  steps: Record<string, number[]>[];
  buffers: Record<string, number[]>;
}

const program = `${PRELUDE}
const { x, y } = ranks.referenceData();
const rows = new ranks.DistributedSampler(16, { numReplicas: dist.worldSize, rank: dist.rank, shuffle: false }).indices();
const xs = tf.gather(x, rows);
const ys = tf.gather(y, rows);
for (const batchNorm of ['sync', 'local']) {
  const model = ranks.referenceModel({ batchNorm });
  const ddp = await ranks.DDP(model, { optimizer: new ranks.SGD({ lr: ranks.REFERENCE_MLP.lr.sgd }), broadcastBuffers: false });
  const steps = [];
  for (let s = 0; s < ranks.REFERENCE_MLP.steps; s++) {
    await ddp.trainStep(xs, ys);
    steps.push(plain(await ddp.snapshot()));
  }
  const buffers = {};
  for (let i = 0; i < model.buffers.length; i++) buffers[model.bufferNames[i]] = Array.from(await model.buffers[i].data());
  report({ batchNorm, steps, buffers });
}
`;

describe.each([2, 4])('BatchNorm across %i ranks', (worldSize) => {
  let records: Rec[][] = [];
  let single: Awaited<ReturnType<typeof singleDeviceHistory>>;
  beforeAll(async () => {
    single = await singleDeviceHistory('sgd', { batchNorm: 'local' });
    records = await runRanks<Rec>(program, worldSize);
  }, 240_000);

  it('SyncBatchNorm under DDP equals single-device BatchNorm on the full batch: weights and running stats (1e-5)', () => {
    for (const rank of records) {
      const run = rank.find((r) => r.batchNorm === 'sync')!;
      run.steps.forEach((p, s) => expect(maxParamDiff(p, single.params[s]!)).toBeLessThan(1e-5));
      expect(maxParamDiff(run.buffers, single.buffers)).toBeLessThan(1e-5);
    }
  });

  it('and so equals torch.nn.BatchNorm1d trained on the full batch (committed PyTorch JSON)', () => {
    const torch = loadReference();
    const run = records[0]!.find((r) => r.batchNorm === 'sync')!;
    run.steps.forEach((p, s) =>
      expect(maxParamDiff(p, torch.runs['single-bn/sgd']![s]!.params)).toBeLessThan(1e-5),
    );
    expect(maxParamDiff(run.buffers, torch.buffers['single-bn/sgd']!)).toBeLessThan(1e-5);
  });

  it("per-rank BatchNorm does not: its statistics come from each rank's rows only", () => {
    const run = records[0]!.find((r) => r.batchNorm === 'local')!;
    expect(maxParamDiff(run.steps.at(-1)!, single.params.at(-1)!)).toBeGreaterThan(1e-4);
    const other = records[1]!.find((r) => r.batchNorm === 'local')!;
    expect(maxParamDiff(run.buffers, other.buffers)).toBeGreaterThan(1e-4);
  });
});

interface UnequalRec {
  rows: number;
  steps: Record<string, number[]>[];
  buffers: Record<string, number[]>;
  statsBytes: number[];
}

// Ranks hold 9, 4 and 3 of the 16 rows: the per-rank counts in the all-gathered (mean, invstd, count) differ.
const unequalProgram = `${PRELUDE}
const { x, y } = ranks.referenceData();
const rows = ranks.unequalShards([9, 4, 3])[dist.rank];
const xs = tf.gather(x, rows);
const ys = tf.gather(y, rows);
const model = ranks.referenceModel({ batchNorm: 'sync' });
const ddp = await ranks.DDP(model, { optimizer: new ranks.SGD({ lr: ranks.REFERENCE_MLP.lr.sgd }), broadcastBuffers: false });
const before = ranks.commBytes();
const steps = [];
for (let s = 0; s < ranks.REFERENCE_MLP.steps; s++) {
  await ddp.trainStep(xs, ys);
  steps.push(plain(await ddp.snapshot()));
}
const buffers = {};
for (let i = 0; i < model.buffers.length; i++) buffers[model.bufferNames[i]] = Array.from(await model.buffers[i].data());
report({ rows: rows.length, steps, buffers, statsBytes: [ranks.commBytesSince(before).allGather ?? 0] });
`;

describe('SyncBatchNorm with unequal per-rank batches (9/4/3 rows on 3 ranks)', () => {
  let records: UnequalRec[][] = [];
  let single: Awaited<ReturnType<typeof singleDeviceHistory>>;
  beforeAll(async () => {
    single = await singleDeviceHistory('sgd', { batchNorm: 'local' });
    records = await runRanks<UnequalRec>(unequalProgram, 3);
  }, 240_000);

  it("combining each rank's (mean, invstd, count) by count equals BatchNorm on the full batch: weights and running stats (1e-5)", () => {
    expect(records.map((r) => r[0]!.rows)).toEqual([9, 4, 3]);
    for (const rank of records) {
      const run = rank[0]!;
      run.steps.forEach((p, s) =>
        expect(maxParamDiff(p, single.params[s]!), `step ${s + 1}`).toBeLessThan(1e-5),
      );
      expect(maxParamDiff(run.buffers, single.buffers)).toBeLessThan(1e-5);
    }
  });

  it('each forward all-gathers 2C + 1 floats per rank (C = 8 hidden channels), as torch.nn.SyncBatchNorm does', () => {
    // A ring all-gather sends (world - 1) segments of 2C + 1 float32 values; 5 training forwards.
    const channels = 8;
    for (const rank of records) expect(rank[0]!.statsBytes[0]).toBe(5 * 2 * (2 * channels + 1) * 4);
  });
});
