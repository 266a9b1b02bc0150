import { describe, expect, it } from 'vitest';
import { GPT3_175B } from '../../../src/lib/figures/activation-memory';
import { fmtGB } from '../../../src/lib/figures/format-quantities';
import {
  ACTIVATION_FORMULA,
  activationInputError,
  perGpuWithActivations,
  fitVerdict,
} from '../../../src/lib/figures/memory-calculator-text';
import {
  ACTIVATION_CALCULATOR_DEFAULTS,
  MEMORY_CALCULATOR_DEFAULTS,
} from '../../../src/lib/figures/widget-defaults';
import { zeroPerGpuBreakdown } from '../../../src/lib/figures/zero-memory';

// GPT-3 175B (Korthikanti et al. 2022, Table 3), micro-batch 1: sbh = 2048 · 1 · 12288 = 25,165,824.
const shape = { ...GPT3_175B, micro: 1 };
const sbh = 2048 * 12288;

describe('memory calculator: activations per GPU (Korthikanti et al. 2022, Eq. 1 and §5)', () => {
  it('defaults to one real model, GPT-3 6.7B, with its own layer shape (Brown et al. 2020, Table 2.1), micro-batch 1, selective recomputation, on 80 GB GPUs', () => {
    expect(ACTIVATION_CALCULATOR_DEFAULTS).toEqual({
      seq: 2048,
      hidden: 4096,
      heads: 32,
      layers: 32,
      micro: 1,
      recompute: 'selective',
    });
    expect(MEMORY_CALCULATOR_DEFAULTS.params).toBe(6.7e9);
    expect(MEMORY_CALCULATOR_DEFAULTS.gpuMemory).toBe(80e9);
  });

  it('pins the three modes for GPT-3 175B: 5as/h = 80, so none keeps 114 sbh per layer, selective 34, full 2', () => {
    // Hand arithmetic: 25,165,824 × 114 = 2,868,903,936 B per layer; × 96 layers = 275,414,777,856 B.
    expect(perGpuWithActivations(0, shape, 'none')).toEqual({
      perLayer: 2_868_903_936,
      activations: 275_414_777_856,
      total: 275_414_777_856,
    });
    expect(perGpuWithActivations(0, shape, 'selective').perLayer).toBe(34 * sbh);
    expect(perGpuWithActivations(0, shape, 'selective').activations).toBe(82_141_249_536);
    expect(perGpuWithActivations(0, shape, 'full').activations).toBe(96 * 2 * sbh);
    expect(fmtGB(perGpuWithActivations(0, shape, 'full').activations)).toBe('4.8 GB');
    expect(ACTIVATION_FORMULA).toEqual({
      none: 'L · sbh(34 + 5as/h)',
      selective: 'L · 34sbh',
      full: 'L · 2sbh',
    });
  });

  it('adds activations whole to the sharded model states: the calculator’s default total per GPU, and its verdict', () => {
    const states = zeroPerGpuBreakdown({ ...MEMORY_CALCULATOR_DEFAULTS }).total;
    const d = ACTIVATION_CALCULATOR_DEFAULTS;
    const got = perGpuWithActivations(states, d, d.recompute);
    // 34 · 2048 · 4096 bytes per layer × 32 layers = 9,126,805,504 B of activations.
    expect(got.activations).toBe(9_126_805_504);
    expect(got.total).toBe(states + 9_126_805_504);
    // ZeRO-2, DeepSpeed layout, 6.7B on 8 GPUs: 2Ψ + 14Ψ/8 = 25.1 GB of states; 34.3 GB in all.
    expect(fmtGB(got.total)).toBe('34.3 GB');
    expect(fitVerdict(got.total, MEMORY_CALCULATOR_DEFAULTS.gpuMemory)).toEqual({
      fits: true,
      text: 'Fits in 80 GB per GPU, 45.7 GB to spare before temporary buffers.',
    });
    expect(fitVerdict(90e9, 80e9)).toEqual({
      fits: false,
      text: 'Does not fit in 80 GB per GPU: 10 GB over.',
    });
    // Micro-batch is linear; so is sequence length outside the attention-score term.
    expect(perGpuWithActivations(0, { ...d, micro: 4 }, 'selective').activations).toBe(
      4 * 9_126_805_504,
    );
  });

  it('rejects shapes it cannot compute, saying why', () => {
    expect(activationInputError(ACTIVATION_CALCULATOR_DEFAULTS)).toBeNull();
    expect(activationInputError({ ...shape, micro: 0 })).toMatch(/whole numbers \(at least 1\)/);
    expect(activationInputError({ ...shape, seq: 2.5 })).toMatch(/whole numbers/);
    expect(activationInputError({ ...shape, heads: 7 })).toBe(
      'The hidden size (12288) must divide evenly by the number of heads (7).',
    );
  });
});
