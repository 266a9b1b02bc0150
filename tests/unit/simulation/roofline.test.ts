import { describe, expect, it } from 'vitest';
import { GPUS } from '../../../playground/simulation/presets.ts';
import {
  batchMatMulCost,
  conv2dCost,
  elementwiseCost,
  matMulCost,
  reductionCost,
  rooflineSeconds,
  transformerStepFlops,
} from '../../../playground/simulation/roofline.ts';

describe('roofline compute time', () => {
  it('counts 2mkn FLOPs for a matMul and each operand once in bytes', () => {
    expect(matMulCost(2, 3, 4)).toEqual({ flops: 48, bytes: 4 * (6 + 12 + 8) });
    expect(matMulCost(2, 3, 4, 'bfloat16').bytes).toBe(2 * 26);
    expect(batchMatMulCost(5, 2, 3, 4)).toEqual({ flops: 240, bytes: 5 * 104 });
  });

  it('counts a conv2d as one dot product of filterH × filterW × inChannels per output', () => {
    const c = conv2dCost({
      batch: 1,
      inHeight: 4,
      inWidth: 4,
      inChannels: 3,
      outHeight: 2,
      outWidth: 2,
      outChannels: 8,
      filterHeight: 3,
      filterWidth: 3,
    });
    expect(c.flops).toBe(2 * (2 * 2 * 8) * 3 * 3 * 3);
    expect(c.bytes).toBe(4 * (48 + 216 + 32));
  });

  it('charges a large matMul by FLOPs and an elementwise add by bytes', () => {
    const h100 = GPUS.h100;
    const mm = rooflineSeconds(matMulCost(8192, 8192, 8192, 'bfloat16'), h100);
    expect(mm.bound).toBe('compute');
    expect(mm.seconds).toBeCloseTo((2 * 8192 ** 3) / 989.4e12, 12);
    const add = rooflineSeconds(elementwiseCost([1 << 20], 2), h100);
    expect(add.bound).toBe('memory');
    expect(add.seconds).toBeCloseTo((4 * 3 * (1 << 20)) / 3.35e12, 15);
    expect(
      rooflineSeconds(matMulCost(8192, 8192, 8192, 'bfloat16'), h100, { efficiency: 0.5 }).seconds,
    ).toBeCloseTo(2 * mm.seconds, 12);
    expect(
      rooflineSeconds(matMulCost(4096, 4096, 4096), h100, { unit: 'fp32' }).seconds,
    ).toBeCloseTo((2 * 4096 ** 3) / 67e12, 12);
  });

  it('the book’s 7B example: 6 × N × tokens FLOPs per step', () => {
    const f = transformerStepFlops(7e9, 4096);
    expect(f.forward + f.backward).toBe(6 * 7e9 * 4096);
    expect(reductionCost([10, 10], 10).bytes).toBe(4 * 110);
  });

  it('rejects shapes and efficiencies that are not physical', () => {
    expect(() => matMulCost(2.5, 1, 1)).toThrow(/non-negative integers/);
    expect(() => rooflineSeconds(matMulCost(1, 1, 1), GPUS.a100, { efficiency: 0 })).toThrow(
      /efficiency/,
    );
  });
});
