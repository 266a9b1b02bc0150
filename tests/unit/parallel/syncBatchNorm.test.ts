import { beforeAll, describe, expect, it } from 'vitest';
import { loadReference, maxParamDiff } from './referenceJson.ts';
import { PRELUDE, runRanks } from './runRanks.ts';
import { singleDeviceHistory } from './singleDeviceRuns.ts';

interface Rec { batchNorm: 'sync' | 'local'; steps: Record<string, number[]>[]; buffers: Record<string, number[]> }

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
    run.steps.forEach((p, s) => expect(maxParamDiff(p, torch.runs['single-bn/sgd']![s]!.params)).toBeLessThan(1e-5));
    expect(maxParamDiff(run.buffers, torch.buffers['single-bn/sgd']!)).toBeLessThan(1e-5);
  });

  it('per-rank BatchNorm does not: its statistics come from each rank\'s rows only', () => {
    const run = records[0]!.find((r) => r.batchNorm === 'local')!;
    expect(maxParamDiff(run.steps.at(-1)!, single.params.at(-1)!)).toBeGreaterThan(1e-4);
    const other = records[1]!.find((r) => r.batchNorm === 'local')!;
    expect(maxParamDiff(run.buffers, other.buffers)).toBeGreaterThan(1e-4);
  });
});
