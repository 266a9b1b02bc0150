import { describe, expect, it } from 'vitest';
import {
  commBytesPerRank,
  commRatioToDdp,
  commSteps,
  commVolumeByPhase,
  commVolumePsi,
  COMM_TABLE_ROWS,
  ZERO_IMPLEMENTATIONS,
  ZERO_IMPLEMENTATION_IDS,
} from '../../../src/lib/figures/comm-volume';
import {
  SOURCE_ZERO3_COMM_MULTIPLE,
  sourceCommTotal,
} from '../../../src/lib/figures/source-errata';

describe('communication volume per rank per step (ZeRO paper §7, FSDP paper)', () => {
  it('DDP, ZeRO-1 and ZeRO-2 move 2Ψ; ZeRO-3 moves 3Ψ', () => {
    expect(['ddp', 'zero1', 'zero2', 'zero3'].map((s) => commVolumePsi(s as 'ddp'))).toEqual([
      2, 2, 2, 3,
    ]);
  });
  it('ZeRO-3 is 1.5× DDP, not 3×', () => {
    expect(commRatioToDdp('zero3')).toBe(1.5);
    expect(commRatioToDdp('zero3')).not.toBe(SOURCE_ZERO3_COMM_MULTIPLE);
  });
  it('ZeRO-1 all-gathers updated parameters; optimizer state never moves', () => {
    const steps = commSteps('zero1');
    expect(
      steps.some(
        (s) =>
          s.collective === 'all-gather' && /parameters/.test(s.what) && s.phase === 'after step',
      ),
    ).toBe(true);
    for (const s of ['ddp', 'zero1', 'zero2', 'zero3'] as const)
      expect(commSteps(s).every((x) => !/optimizer/i.test(x.what))).toBe(true);
  });
  it('ZeRO-3 gathers parameters in forward and again in backward', () => {
    expect(commVolumeByPhase('zero3')).toEqual({ forward: 1, backward: 2, 'after step': 0 });
    expect(commVolumeByPhase('ddp')).toEqual({ forward: 0, backward: 2, 'after step': 0 });
  });
  it('exact ring bytes: 2(n−1)/n · Ψ · bytes for DDP', () => {
    expect(commBytesPerRank('ddp', 1000, 2, 4)).toBe(2 * (3 / 4) * 1000 * 2);
    expect(commBytesPerRank('zero3', 1000, 2, 4)).toBe(3 * (3 / 4) * 1000 * 2);
    expect(commBytesPerRank('ddp', 1000, 2, 1)).toBe(0);
  });
  it("the source table's rows do not add up to the right totals", () => {
    expect(sourceCommTotal('zero1')).not.toBe(commVolumePsi('zero1'));
    expect(sourceCommTotal('zero3')).not.toBe(commVolumePsi('zero3'));
    expect(sourceCommTotal('zero3') / sourceCommTotal('ddp')).not.toBe(SOURCE_ZERO3_COMM_MULTIPLE);
  });
});

describe('ZeRO-1/2 traffic depends on the implementation', () => {
  it('reduce-scatter + all-gather (the paper, FSDP SHARD_GRAD_OP): 2Ψ, the same as DDP', () => {
    expect(commVolumePsi('zero1', 'reduce-scatter')).toBe(2);
    expect(commVolumePsi('zero2', 'reduce-scatter')).toBe(2);
  });
  it("PyTorch's ZeroRedundancyOptimizer: DDP's all-reduce (2Ψ) + each rank broadcasts its shard (Ψ) = 3Ψ, 1.5× DDP", () => {
    const steps = commSteps('zero1', 'zero-redundancy-optimizer');
    expect(steps.map((s) => [s.collective, s.psi])).toEqual([
      ['all-reduce', 2],
      ['broadcast', 1],
    ]);
    expect(commRatioToDdp('zero1', 'zero-redundancy-optimizer')).toBe(1.5);
    expect(() => commSteps('zero2', 'zero-redundancy-optimizer')).toThrow(RangeError);
  });
  it("DeepSpeed's default bucket all-reduce: 3Ψ for stage 1 and 2", () => {
    expect(commVolumePsi('zero1', 'deepspeed-bucket-all-reduce')).toBe(3);
    expect(commVolumePsi('zero2', 'deepspeed-bucket-all-reduce')).toBe(3);
  });
  it('DDP and ZeRO-3 do not depend on the implementation', () => {
    for (const impl of ZERO_IMPLEMENTATION_IDS) {
      expect(commVolumePsi('ddp', impl)).toBe(2);
      expect(commVolumePsi('zero3', impl)).toBe(3);
    }
  });
  it('exact bytes on 4 ranks: ZeroRedundancyOptimizer moves 3 · (3/4) · Ψ elements', () => {
    expect(commBytesPerRank('zero1', 1000, 2, 4, 'zero-redundancy-optimizer')).toBe(
      3 * (3 / 4) * 1000 * 2,
    );
    expect(commBytesPerRank('zero1', 1000, 2, 4)).toBe(2 * (3 / 4) * 1000 * 2);
  });
  it('optimizer state never moves in any implementation, and every implementation cites a file and function', () => {
    for (const row of COMM_TABLE_ROWS)
      expect(
        commSteps(row.strategy, row.implementation).every((x) => !/optimizer/.test(x.what)),
      ).toBe(true);
    for (const id of ZERO_IMPLEMENTATION_IDS)
      expect(ZERO_IMPLEMENTATIONS[id].source).toMatch(/\.py/);
  });
});
