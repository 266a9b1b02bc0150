import { describe, expect, it } from 'vitest';
import { commBytesPerRank, commRatioToDdp, commSteps, commVolumeByPhase, commVolumePsi } from '../../../src/lib/figures/commVolume';
import { SOURCE_ZERO3_COMM_MULTIPLE, sourceCommTotal } from '../../../src/lib/figures/sourceErrata';

describe('communication volume per rank per step (ZeRO paper §7, FSDP paper)', () => {
  it('DDP, ZeRO-1 and ZeRO-2 move 2Ψ; ZeRO-3 moves 3Ψ', () => {
    expect(['ddp', 'zero1', 'zero2', 'zero3'].map((s) => commVolumePsi(s as 'ddp'))).toEqual([2, 2, 2, 3]);
  });
  it('ZeRO-3 is 1.5× DDP, not 3×', () => {
    expect(commRatioToDdp('zero3')).toBe(1.5);
    expect(commRatioToDdp('zero3')).not.toBe(SOURCE_ZERO3_COMM_MULTIPLE);
  });
  it('ZeRO-1 all-gathers updated parameters; optimizer state never moves', () => {
    const steps = commSteps('zero1');
    expect(steps.some((s) => s.collective === 'all-gather' && /parameters/.test(s.what) && s.phase === 'after step')).toBe(true);
    for (const s of ['ddp', 'zero1', 'zero2', 'zero3'] as const) expect(commSteps(s).every((x) => !/optimizer/i.test(x.what))).toBe(true);
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
