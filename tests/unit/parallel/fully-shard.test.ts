import { beforeAll, describe, expect, it } from 'vitest';
import { dim0Layout, ownRows } from '../../../playground/parallel/dim0-shards.ts';
import { maxParamDiff } from './reference-json.ts';
import { PRELUDE, runRanks } from './run-ranks.ts';
import { singleDeviceHistory } from './single-device-runs.ts';

describe('FSDP2 dim-0 layout (torch.chunk with empty chunks, padded to the largest)', () => {
  it('splits 8 rows over 3 ranks as 3, 3, 2 and 5 rows over 4 ranks as 2, 2, 1, 0', () => {
    const a = dim0Layout([8, 4], 3);
    expect([0, 1, 2].map((r) => ownRows(a, r))).toEqual([3, 3, 2]);
    expect(a.chunk).toBe(12);
    const b = dim0Layout([5], 4);
    expect([0, 1, 2, 3].map((r) => ownRows(b, r))).toEqual([2, 2, 1, 0]);
  });
});

interface Rec {
  name: string;
  steps: Record<string, number[]>[];
  moved: Record<string, number>;
}

// World 3: the reference MLP's dim 0 (8 hidden rows, 3 outputs) does not divide evenly everywhere.
const program = `${PRELUDE}
const { x, y } = ranks.referenceData();
const rows = ranks.unequalShards([6, 5, 5])[dist.rank];
const xs = tf.gather(x, rows);
const ys = tf.gather(y, rows);
const makers = {
  'fully-shard': (m, o) => ranks.fullyShard(m, o),
  'fully-shard-keep': (m, o) => ranks.fullyShard(m, { ...o, reshardAfterForward: false }),
  'fully-shard-no-prefetch': (m, o) => ranks.fullyShard(m, { ...o, forwardPrefetch: 0, backwardPrefetch: 0 }),
  'fully-shard-prefetch-2': (m, o) => ranks.fullyShard(m, { ...o, forwardPrefetch: 2, backwardPrefetch: 2 }),
  'fsdp1-no-backward-prefetch': (m, o) => ranks.FSDP(m, { ...o, backwardPrefetch: null }),
  'fsdp1-FULL_SHARD': (m, o) => ranks.FSDP(m, { ...o, shardingStrategy: 'FULL_SHARD' }),
  // Layer 2 its own unit, layer 0 left to the root (kept whole from forward to backward by default).
  'fully-shard-root': (m, o) => ranks.fullyShard(m, { ...o, units: [[2]] }),
  'fully-shard-root-reshard': (m, o) => ranks.fullyShard(m, { ...o, units: [[2]], reshardAfterForward: true }),
};
for (const [name, make] of Object.entries(makers)) {
  const trainer = await make(ranks.referenceModel(), { optimizer: new ranks.Adam({ lr: ranks.REFERENCE_MLP.lr.adam }) });
  const steps = [];
  const before = ranks.commBytes();
  for (let s = 0; s < ranks.REFERENCE_MLP.steps; s++) {
    await trainer.trainStep(xs, ys);
    steps.push(plain(await trainer.snapshot()));
  }
  report({ name, steps, moved: ranks.commBytesSince(before) });
}
let error = '';
try { await ranks.fullyShard(ranks.referenceModel(), { optimizer: new ranks.SGD({ lr: 0.1 }), reshardAfterForward: 2 }); } catch (e) { error = e.message; }
report({ name: 'bad-int', steps: [], moved: {}, error });
error = '';
try { await ranks.fullyShard(ranks.referenceModel(), { optimizer: new ranks.SGD({ lr: 0.1 }), backwardPrefetch: -1 }); } catch (e) { error = e.message; }
report({ name: 'bad-prefetch', steps: [], moved: {}, error });
for (const [name, units] of [['two-units', [[0], [0, 2]]], ['no-layer', [[3]]], ['no-params', [[1]]]]) {
  let error = '';
  try { await ranks.fullyShard(ranks.referenceModel(), { optimizer: new ranks.SGD({ lr: 0.1 }), units }); } catch (e) { error = e.message; }
  report({ name, steps: [], moved: {}, error });
}
`;

describe('fullyShard at world 3 (uneven dim 0, 6/5/5 rows) equals single-device training', () => {
  let records: (Rec & { error?: string })[][] = [];
  let single: Record<string, number[]>[] = [];
  beforeAll(async () => {
    single = (await singleDeviceHistory('adam')).params;
    records = await runRanks<Rec & { error?: string }>(program, 3);
  }, 240_000);

  for (const name of [
    'fully-shard',
    'fully-shard-keep',
    'fully-shard-no-prefetch',
    'fully-shard-prefetch-2',
    'fsdp1-no-backward-prefetch',
    'fsdp1-FULL_SHARD',
    'fully-shard-root',
    'fully-shard-root-reshard',
  ]) {
    it(`${name} + adam matches after each of 5 steps (1e-5), on every rank`, () => {
      for (const rank of records) {
        const run = rank.find((r) => r.name === name)!;
        run.steps.forEach((p, s) =>
          expect(maxParamDiff(p, single[s]!), `step ${s + 1}`).toBeLessThan(1e-5),
        );
      }
    });
  }

  it('reshardAfterForward: false skips the backward all-gathers', () => {
    const bytes = (name: string) => records[0]!.find((r) => r.name === name)!.moved.allGather ?? 0;
    expect(bytes('fully-shard-keep')).toBeLessThan(bytes('fully-shard'));
  });

  it('prefetch changes when all-gathers are issued, not how many bytes move', () => {
    const moved = (name: string) => records[0]!.find((r) => r.name === name)!.moved;
    expect(moved('fully-shard-no-prefetch')).toEqual(moved('fully-shard'));
    expect(moved('fully-shard-prefetch-2')).toEqual(moved('fully-shard'));
  });

  it('a negative prefetch count fails at the wrapper call, saying what it counts', () => {
    expect(records[0]!.find((r) => r.name === 'bad-prefetch')!.error).toMatch(
      /backwardPrefetch is how many units ahead to all-gather \(0 = off\), not -1/,
    );
  });

  it('an int that does not divide the shard group fails at the wrapper call, saying what must divide', () => {
    expect(records[0]!.find((r) => r.name === 'bad-int')!.error).toMatch(
      /must divide the shard group size 3, not 2/,
    );
  });

  it('the root unit keeps its parameters from forward to backward unless reshardAfterForward is set', () => {
    const bytes = (name: string) => records[0]!.find((r) => r.name === name)!.moved.allGather ?? 0;
    expect(bytes('fully-shard-root')).toBeLessThan(bytes('fully-shard-root-reshard'));
    expect(bytes('fully-shard-root-reshard')).toBe(bytes('fully-shard'));
  });

  it('units that share a layer, name a missing layer or hold no parameters fail at the wrapper call', () => {
    const error = (name: string) => records[0]!.find((r) => r.name === name)!.error;
    expect(error('two-units')).toMatch(/layer 0 is in two units/);
    expect(error('no-layer')).toMatch(/units\[0\] names layer 3, but the model has layers 0 to 2/);
    expect(error('no-params')).toMatch(/units\[0\] holds no parameters/);
  });
});

interface CommRec {
  name: string;
  moved: Record<string, number>;
  gapToDdp: number;
  keys: string[];
  gathers: string[];
  scatters: string[];
}

// Ψ = 2 · (8·8 + 8) = 144 elements, every dim 0 divisible by 4 and 2: no padding in the counts.
const meshProgram = `${PRELUDE}
const rng = new ranks.Lcg(5 + dist.rank);
const x = tf.tensor2d(rng.fill(4 * 8), [4, 8]);
const y = tf.tensor2d(rng.fill(4 * 8), [4, 8]);
const configs = {
  fsdp: {},
  'reshard-2': { reshardAfterForward: 2 },
  hsdp: { mesh: ranks.initDeviceMesh([2, 2], { meshDimNames: ['replicate', 'shard'] }) },
  // Linear, Tanh, Linear, Tanh, Linear: the middle Linear its own unit, the first and last the root, as a
  // transformer's embedding and head are around its blocks.
  'root-apart': { units: [[2]], sizes: [8, 8, 8, 8] },
};
const optimizer = () => new ranks.SGD({ lr: 0.1 });
for (const [name, { sizes = [8, 8, 8], ...o }] of Object.entries(configs)) {
  const trainer = await ranks.fullyShard(ranks.mlp(sizes, { seed: 2 }), { optimizer: optimizer(), average: 'ranks', ...o });
  const ddp = await ranks.DDP(ranks.mlp(sizes, { seed: 2 }), { optimizer: optimizer(), average: 'ranks' });
  const before = ranks.commBytes();
  await trainer.trainStep(x, y);
  const moved = ranks.commBytesSince(before);
  await ddp.trainStep(x, y);
  const [a, b] = [await trainer.snapshot(), await ddp.snapshot()];
  const gapToDdp = Math.max(...Object.keys(b).map((k) => Math.max(...b[k].map((v, i) => Math.abs(v - a[k][i])))));
  const labels = (kind) => trainer.timeline.filter((s) => s.kind === kind).map((s) => s.label);
  report({ name, moved, gapToDdp, keys: Object.keys(a), gathers: labels('allGather'), scatters: labels('reduceScatter') });
}
`;

describe('fullyShard meshes on 4 ranks: where each collective runs, read from the byte counters', () => {
  const psi = 144 * 4;
  let recs: CommRec[] = [];
  beforeAll(async () => {
    recs = (await runRanks<CommRec>(meshProgram, 4))[0]!;
  }, 240_000);
  const moved = (name: string) => recs.find((r) => r.name === name)!.moved;

  it('1-D mesh: forward and backward all-gathers and the reduce-scatter run over all 4 ranks (3/4 Ψ each)', () => {
    expect(moved('fsdp')).toEqual({ allGather: 2 * (3 / 4) * psi, reduceScatter: (3 / 4) * psi });
  });

  it('reshardAfterForward: 2 keeps half-shards after forward, so the backward all-gather runs within 2 ranks', () => {
    // Forward gathers quarters from 3 peers; backward gathers halves from 1 peer.
    expect(moved('reshard-2')).toEqual({
      allGather: (3 / 4) * psi + (1 / 2) * psi,
      reduceScatter: (3 / 4) * psi,
    });
  });

  it('every configuration lands on the weights DDP reaches from the same data (1e-6)', () => {
    for (const r of recs) expect(r.gapToDdp, r.name).toBeLessThan(1e-6);
  });

  it('a root whose layers are apart (first and last) is gathered once in forward and kept through backward; the block unit is gathered twice', () => {
    const r = recs.find((x) => x.name === 'root-apart')!;
    const [root, unit] = [(8 * 8 + 8) * 2 * 4, (8 * 8 + 8) * 4];
    expect(r.moved).toEqual({
      allGather: (3 / 4) * root + 2 * (3 / 4) * unit,
      reduceScatter: (3 / 4) * (root + unit),
    });
    expect(r.gathers).toEqual([
      'forward unit 0 (root, layers 0, 4)',
      'forward unit 1 (layer 2)',
      'backward unit 1 (layer 2)',
    ]);
    // The root's gradients are complete only when backward reaches layer 0: its reduce-scatter goes out last.
    expect(r.scatters).toEqual(['unit 1 (layer 2)', 'unit 0 (root, layers 0, 4)']);
    // The snapshot names parameters in registration order, whatever unit holds them.
    expect(r.keys).toEqual(['0.weight', '0.bias', '2.weight', '2.bias', '4.weight', '4.bias']);
  });

  it('HSDP on a 2 × 2 mesh: shard within a row of 2, then all-reduce the half-shards across the 2 replicas', () => {
    // Gathers and the reduce-scatter move halves within the row. The all-reduce of the Ψ/2 shard over the 2 replicas
    // uses the runtime's default two-shot algorithm, which sends (n − 1)/n of the tensor: Ψ/4 (auto-algorithm.ts).
    expect(moved('hsdp')).toEqual({
      allGather: 2 * (1 / 2) * psi,
      reduceScatter: (1 / 2) * psi,
      allReduce: (1 / 4) * psi,
    });
  });
});
