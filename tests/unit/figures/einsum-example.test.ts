import { describe, expect, it } from 'vitest';
import {
  EINSUM_EXAMPLE,
  einsumPerDevice,
  globalBatch,
} from '../../../src/lib/figures/einsum-example';

// Source 002: "set b to 5120, d to 2048 and f to 1024 ... 2 GPUs, each GPU will see one half of b (2560 vectors of size d)".
describe('the bd,df->bf example', () => {
  const p = einsumPerDevice(EINSUM_EXAMPLE);
  it('uses the source numbers', () =>
    expect(EINSUM_EXAMPLE).toEqual({ b: 5120, d: 2048, f: 1024, devices: 2 }));
  it('each device holds 2560 rows of x, the whole 2048×1024 W and a 2560×1024 output', () => {
    expect(p.rows).toBe(2560);
    expect(p.inputElements).toBe(2560 * 2048);
    expect(p.weightElements).toBe(2_097_152);
    expect(p.outputElements).toBe(2_621_440);
  });
  it('forward is 2·b/2·d·f FLOPs per device, backward twice that', () => {
    expect(p.forwardFlops).toBe(10_737_418_240);
    expect(p.backwardFlops).toBe(2 * p.forwardFlops);
  });
  it('the fp32 gradient of W is 8 MiB, and a 2-rank ring sends exactly that much per rank', () => {
    expect(p.gradientBytes).toBe(8 * 2 ** 20);
    expect(p.allReduceBytesSent).toBe(8 * 2 ** 20);
  });
  it('refuses an uneven split', () =>
    expect(() => einsumPerDevice({ ...EINSUM_EXAMPLE, devices: 3 })).toThrow(/evenly/));
});

it('global batch = per-rank batch × ranks × accumulation steps', () => {
  expect(globalBatch(32, 8)).toBe(256);
  expect(globalBatch(8, 8, 4)).toBe(256);
});
