import { beforeAll, describe, expect, it } from 'vitest';
import type { MemorySnapshot } from '../../../playground/parallel/memory-ledger.ts';
import { PRELUDE, runRanks } from './run-ranks.ts';

interface Rec {
  name: string;
  psi: number;
  afterBackward: MemorySnapshot;
  afterStep: MemorySnapshot;
  /** Bytes this rank's collectives moved during one training step, by collective kind. */
  moved: Record<string, number>;
  /** tf.memory().numBytes above what existed before the model was built, at the same two moments. */
  tfBytes: { afterBackward: number; afterStep: number };
}

const W = 4;
// 16 Linear layers of 256×256 (+ bias): Ψ = 1 052 672 parameters, one ~257 KB bucket or FSDP unit per layer.
const program = `${PRELUDE}
const sizes = Array(17).fill(256);
const rng = new ranks.Lcg(40 + dist.rank);
const x = tf.tensor2d(rng.fill(4 * 256), [4, 256]);
const y = tf.tensor2d(rng.fill(4 * 256), [4, 256]);
const makers = {
  ddp: (m, o) => ranks.DDP(m, { ...o, gradientAsBucketView: true, allReduceAlgorithm: 'ring' }),
  zero1: (m, o) => ranks.ZeRO(m, { ...o, stage: 1 }),
  'zero1-torch': (m, o) => ranks.ZeroRedundancyOptimizer(m, { ...o, gradientAsBucketView: true, allReduceAlgorithm: 'ring' }),
  zero2: (m, o) => ranks.ZeRO(m, { ...o, stage: 2 }),
  zero3: (m, o) => ranks.ZeRO(m, { ...o, stage: 3 }),
  fullyShard: (m, o) => ranks.fullyShard(m, o),
};
for (const [name, make] of Object.entries(makers)) {
  const baseline = tf.memory().numBytes;
  const model = ranks.mlp(sizes, { seed: 9, scale: 0.05 });
  const psi = model.numParams;
  const trainer = await make(model, { optimizer: new ranks.Adam({ lr: 1e-3 }), bucketCapMB: 0.25, firstBucketCapMB: 0.25 });
  await trainer.trainStep(x, y);
  trainer.ledger.resetPeak();
  const before = ranks.commBytes();
  await trainer.backward(x, y);
  const afterBackward = trainer.ledger.snapshot();
  const tfAfterBackward = tf.memory().numBytes - baseline;
  await trainer.step();
  const moved = ranks.commBytesSince(before);
  const tfBytes = { afterBackward: tfAfterBackward, afterStep: tf.memory().numBytes - baseline };
  report({ name, psi, afterBackward, afterStep: trainer.ledger.snapshot(), moved, tfBytes });
}
`;

const within5 = (measured: number, expected: number) =>
  expect(Math.abs(measured / expected - 1), `${measured} vs ${expected}`).toBeLessThan(0.05);

describe(`memory ledger and communication counters vs the ZeRO analysis (${W} ranks, Ψ ≈ 1.05M, fp32 Adam)`, () => {
  let recs: Record<string, Rec> = {};
  let psi = 0;
  beforeAll(async () => {
    const records = await runRanks<Rec>(program, W, 240_000);
    recs = Object.fromEntries(records[1]!.map((r) => [r.name, r]));
    psi = recs.ddp!.psi;
  }, 300_000);

  it('uses a model of at least 1M parameters', () => {
    expect(psi).toBeGreaterThanOrEqual(1_000_000);
  });

  it('the ledger misses nothing: its total equals the bytes tfjs itself reports allocated since the model was built', () => {
    for (const name of ['ddp', 'zero1', 'zero1-torch', 'zero2', 'zero3', 'fullyShard']) {
      const r = recs[name]!;
      expect(r.afterBackward.total, `${name} after backward`).toBe(r.tfBytes.afterBackward);
      expect(r.afterStep.total, `${name} after step`).toBe(r.tfBytes.afterStep);
    }
  });

  // Bytes per parameter (fp32): params 4, grads 4, Adam m and v 8; ZeRO divides what it shards by W.
  const expected: Record<string, { params: number; grads: number; optimizerState: number }> = {
    ddp: { params: 4, grads: 4, optimizerState: 8 },
    zero1: { params: 4, grads: 4, optimizerState: 8 / W },
    'zero1-torch': { params: 4, grads: 4, optimizerState: 8 / W },
    zero2: { params: 4, grads: 4 / W, optimizerState: 8 / W },
    zero3: { params: 4 / W, grads: 4 / W, optimizerState: 8 / W },
    fullyShard: { params: 4 / W, grads: 4 / W, optimizerState: 8 / W },
  };

  for (const name of ['ddp', 'zero1', 'zero1-torch', 'zero2', 'zero3', 'fullyShard']) {
    it(`${name}: measured parameter, gradient and optimizer-state bytes match the formula within 5%`, () => {
      const r = recs[name]!;
      const e = expected[name]!;
      within5(r.afterBackward.current.params, e.params * psi);
      within5(r.afterBackward.current.optimizerState, e.optimizerState * psi);
      // ZeRO-1 keeps every full gradient until the backward ends: its gradient memory is the peak.
      const grads =
        name === 'zero1' ? r.afterBackward.peakByCategory.grads : r.afterBackward.current.grads;
      within5(grads, e.grads * psi);
      within5(
        r.afterBackward.current.params + grads + r.afterBackward.current.optimizerState,
        (e.params + e.grads + e.optimizerState) * psi,
      );
    });
  }

  it('memory for model states falls 16Ψ → 10Ψ → 7Ψ → 4Ψ at 4 ranks, as the ZeRO paper describes', () => {
    const total = (n: string) => {
      const r = recs[n]!.afterBackward;
      return (
        r.current.params +
        (n === 'zero1' ? r.peakByCategory.grads : r.current.grads) +
        r.current.optimizerState
      );
    };
    const perParam = ['ddp', 'zero1', 'zero2', 'zero3'].map((n) => total(n) / psi);
    expect(perParam.map((v) => Math.round(v))).toEqual([16, 10, 7, 4]);
  });

  it('ZeRO-2 frees gradients bucket by bucket (its gradient peak is far below Ψ); ZeRO-3 gathers one layer at a time', () => {
    expect(recs.zero2!.afterBackward.peakByCategory.grads).toBeLessThan(4 * psi * 0.5);
    expect(recs.zero3!.afterBackward.peakByCategory.gathered).toBeLessThan(4 * psi * 0.25);
  });

  const ring = (W - 1) / W;
  it('DDP, ZeRO-1 and ZeRO-2 move 2Ψ per rank per step (ring: 2·(W−1)/W·Ψ elements sent), within 5%', () => {
    for (const name of ['ddp', 'zero1', 'zero2']) {
      const total = Object.values(recs[name]!.moved).reduce((a, b) => a + b, 0);
      within5(total, 2 * ring * 4 * psi);
    }
    within5(recs.ddp!.moved.allReduce ?? 0, 2 * ring * 4 * psi);
    within5(recs.zero2!.moved.reduceScatter ?? 0, ring * 4 * psi);
    within5(recs.zero2!.moved.allGather ?? 0, ring * 4 * psi);
  });

  it("ZeRO-1 as torch's ZeroRedundancyOptimizer moves 3Ψ: DDP's all-reduce (2Ψ) plus each rank broadcasting its updated parameters (Ψ)", () => {
    const moved = recs['zero1-torch']!.moved;
    within5(moved.allReduce ?? 0, 2 * ring * 4 * psi);
    // Rank 1 broadcasts the quarter of the parameters it owns to the 3 others.
    within5(moved.broadcast ?? 0, ring * 4 * psi);
    const total = Object.values(moved).reduce((a, b) => a + b, 0);
    const reduceScatterZero1 = Object.values(recs.zero1!.moved).reduce((a, b) => a + b, 0);
    within5(total / reduceScatterZero1, 1.5);
  });

  it('ZeRO-3 moves 3Ψ: 1.5× DDP, not 3×', () => {
    const z3 = Object.values(recs.zero3!.moved).reduce((a, b) => a + b, 0);
    const ddp = Object.values(recs.ddp!.moved).reduce((a, b) => a + b, 0);
    within5(z3, 3 * ring * 4 * psi);
    within5(recs.zero3!.moved.allGather ?? 0, 2 * ring * 4 * psi);
    within5(z3 / ddp, 1.5);
  });

  it('fullyShard (FSDP2) moves the same 3Ψ as ZeRO-3: two all-gathers and one reduce-scatter of the dim-0 shards', () => {
    const moved = recs.fullyShard!.moved;
    within5(moved.allGather ?? 0, 2 * ring * 4 * psi);
    within5(moved.reduceScatter ?? 0, ring * 4 * psi);
  });
});
