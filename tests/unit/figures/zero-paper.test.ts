import { describe, expect, it } from 'vitest';
import {
  figure1Bytes,
  gpt2ModelStateBytes,
  table1Row,
  TABLE1_GPUS,
  TABLE1_MODELS,
} from '../../../src/lib/figures/zero-paper';
import { fmtGB } from '../../../src/lib/figures/format-quantities';

// Printed values from Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
// Parameter Models" (SC 2020): Figure 1 and Table 1, in GB. Typed in by hand from the paper.
const FIGURE1_PRINTED = ['120 GB', '31.4 GB', '16.6 GB', '1.9 GB'];
const TABLE1_PRINTED: Record<number, number[][]> = {
  7.5e9: [
    [120, 120, 120],
    [52.5, 41.3, 30],
    [35.6, 21.6, 7.5],
    [31.4, 16.6, 1.88],
    [30.4, 15.4, 0.47],
    [30.1, 15.1, 0.12],
  ],
  128e9: [
    [2048, 2048, 2048],
    [896, 704, 512],
    [608, 368, 128],
    [536, 284, 32],
    [518, 263, 8],
    [513, 257, 2],
  ],
  1e12: [
    [16000, 16000, 16000],
    [7000, 5500, 4000],
    [4750, 2875, 1000],
    [4187, 2218, 250],
    [4046, 2054, 62.5],
    [4011, 2013, 15.6],
  ],
};

/** One unit in the last printed digit: the paper rounds small values and truncates large ones. */
function lastDigitUnit(printed: number): number {
  const decimals = (String(printed).split('.')[1] ?? '').length;
  return 10 ** -decimals;
}

describe('ZeRO paper, Figure 1 (Ψ = 7.5B, N_d = 64, K = 12)', () => {
  it('prints 120 → 31.4 → 16.6 → 1.9 GB exactly as the paper does', () => {
    expect(figure1Bytes().map((b) => fmtGB(b))).toEqual(FIGURE1_PRINTED);
  });
  it('is (2+2+K)Ψ, 2Ψ+2Ψ+KΨ/N, 2Ψ+(2+K)Ψ/N, (2+2+K)Ψ/N', () => {
    const P = 7.5e9,
      N = 64,
      K = 12;
    expect(figure1Bytes()).toEqual([
      (4 + K) * P,
      4 * P + (K * P) / N,
      2 * P + ((2 + K) * P) / N,
      ((4 + K) * P) / N,
    ]);
  });
});

describe('ZeRO paper, Table 1', () => {
  for (const params of TABLE1_MODELS)
    for (const [i, gpus] of TABLE1_GPUS.entries()) {
      it(`${params / 1e9}B on ${gpus} GPUs agrees to the printed digit`, () => {
        const computed = table1Row(params, gpus).map((b) => b / 1e9);
        const printed = TABLE1_PRINTED[params]![i]!;
        computed.forEach((c, j) =>
          expect(Math.abs(c - printed[j]!)).toBeLessThan(lastDigitUnit(printed[j]!)),
        );
      });
    }
});

describe('ZeRO paper, section 3.1', () => {
  it('GPT-2 1.5B: 3 GB of fp16 weights, at least 24 GB of model states', () => {
    const g = gpt2ModelStateBytes();
    expect(fmtGB(g.weights)).toBe('3 GB');
    expect(fmtGB(g.modelStates)).toBe('24 GB');
  });
});
