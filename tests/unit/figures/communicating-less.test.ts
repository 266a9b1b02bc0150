import { describe, expect, it } from 'vitest';
import {
  deepspeedQwzGroups,
  gradientSyncRows,
  MXFP8_BLOCK,
  powerSgdLayer,
  WIRE,
  wireBytesPerValue,
  zeroPlusPlusVolume,
} from '../../../src/lib/figures/communicating-less';

describe('chapter 10: bytes on the wire', () => {
  it('ZeRO++ cuts ZeRO-3’s cross-node volume from 3M to 0.75M, 4× (Wang et al. 2023, abstract)', () => {
    const v = zeroPlusPlusVolume();
    expect(v.zero3.total).toBe(3);
    expect(v.zeroPp).toEqual({ forward: 0.5, backward: 0, gradients: 0.25, total: 0.75 });
    expect(v.reduction).toBe(4);
  });

  it('DeepSpeed’s CUDAQuantizer group choice, as partition_parameters.py computes it', () => {
    // A 4096×4096 weight: ⌈2^24 / 8000⌉ = 2098 groups, stepped up to 4096 (the first with 8·groups dividing 2^24).
    expect(deepspeedQwzGroups(4096 * 4096)).toEqual({ groups: 4096, groupSize: 4096 });
    // What it is handed is one rank's shard: 2^20 values on 16 GPUs, 256 groups of the same 4096.
    expect(deepspeedQwzGroups((4096 * 4096) / 16)).toEqual({ groups: 256, groupSize: 4096 });
    expect(WIRE.int8Qwz.group).toBe(deepspeedQwzGroups((4096 * 4096) / 16).groupSize);
    // Groups stay under its 16k assertion for other shapes too.
    for (const numel of [4096 * 11008, 8192 * 8192, 1024 * 1024, 5120 * 13824])
      expect(deepspeedQwzGroups(numel).groupSize).toBeLessThan(16000);
  });

  it('bytes per value: int8 with fp32 group scales, MXFP8 with E8M0 block scales', () => {
    expect(wireBytesPerValue(WIRE.fp32)).toBe(4);
    expect(wireBytesPerValue(WIRE.bf16)).toBe(2);
    expect(wireBytesPerValue(WIRE.int8Qwz)).toBeCloseTo(1 + 4 / 4096, 12);
    expect(MXFP8_BLOCK).toBe(32);
    expect(wireBytesPerValue(WIRE.mxfp8)).toBe(1 + 1 / 32);
  });

  it('PowerSGD on a 4096² layer: 2048× at rank 1, 512× at rank 4; error feedback holds one fp32 gradient', () => {
    expect(powerSgdLayer(4096, 4096, 1).ratio).toBe(2048);
    expect(powerSgdLayer(4096, 4096, 4).ratio).toBe(512);
    expect(powerSgdLayer(256, 128, 4).ratio).toBeCloseTo(32768 / 1536, 12);
    expect(powerSgdLayer(4096, 4096, 4).errorFeedbackBytes).toBe(4096 * 4096 * 4);
  });

  it('PowerSGDState defaults start_powerSGD_iter to 1_000 (powerSGD_hook.py, since PR #55272)', async () => {
    const { POWER_SGD_DEFAULTS } = await import('../../../src/lib/figures/mixed-precision');
    expect(POWER_SGD_DEFAULTS.startPowerSgdIter).toBe(1000);
  });

  it('a 7B gradient sync on two 100 GbE nodes: bf16 halves the time, PowerSGD and local SGD cut it further', () => {
    const [fp32, bf16, psgd, local] = gradientSyncRows();
    expect(bf16!.seconds / fp32!.seconds).toBeGreaterThan(0.45);
    expect(bf16!.seconds / fp32!.seconds).toBeLessThan(0.55);
    expect(psgd!.seconds).toBeLessThan(bf16!.seconds / 100);
    expect(local!.seconds).toBeCloseTo(fp32!.seconds / 8, 12);
  });

  it('PowerSGD priced as its hook runs: two sequential 64 KB all-reduces per 4096² bucket, latency-bound', async () => {
    const { powerSgdSequentialAllReduces } =
      await import('../../../src/lib/figures/communicating-less');
    const s = powerSgdSequentialAllReduces(7e9, 4096, 4);
    expect(s.count).toBe(2 * Math.ceil(7e9 / 4096 ** 2));
    expect(s.bytes).toBe(4096 * 4 * 4);
    expect(s.seconds).toBeCloseTo(s.count * s.each, 12);
    // At least 8× the bandwidth-only row the table prints.
    expect(s.seconds).toBeGreaterThan(8 * gradientSyncRows()[2]!.seconds);
  });
});

describe('chapter 10: the running example fits only with the optimizer state sharded', () => {
  it('7B fp32 + Adam: DDP 112 GB > 80 GB; ZeroRedundancyOptimizer 59.5 GB fits; its PowerSGD residual makes 87.5 GB', async () => {
    const { slowClusterMemory } = await import('../../../src/lib/figures/communicating-less');
    const m = slowClusterMemory(7e9);
    expect(m.hbm).toBe(80e9); // A100-SXM4-80GB
    expect(m.ddp).toBe(16 * 7e9);
    expect(m.ddp).toBeGreaterThan(m.hbm);
    expect(m.zero1).toBeCloseTo((4 + 4 + 8 / 16) * 7e9, 0);
    expect(m.zero1).toBeLessThan(m.hbm);
    expect(m.zero1WithPowerSgd).toBeCloseTo(87.5e9, 0);
    expect(m.zero1WithPowerSgd).toBeGreaterThan(m.hbm);
  });
});

describe('chapter 10: FP8', () => {
  it('E4M3 tops out at 448 and E5M2 at 57344 (Micikevicius et al. 2022, Table 1)', async () => {
    const { fp8MaxFinite } = await import('../../../src/lib/figures/communicating-less');
    expect(fp8MaxFinite('e4m3')).toBe(448);
    expect(fp8MaxFinite('e5m2')).toBe(57344);
  });
});
