import { describe, expect, it } from 'vitest';
import { GPT3_175B } from '../../../src/lib/figures/activation-memory';
import { fmtGB } from '../../../src/lib/figures/format-quantities';
import {
  ACTIVATION_FORMULA,
  activationInputError,
  perGpuWithActivations,
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
  it('defaults to GPT-3 175B’s shape as the paper lists it, micro-batch 1, selective recomputation', () => {
    expect(ACTIVATION_CALCULATOR_DEFAULTS).toEqual({
      seq: 2048,
      hidden: 12288,
      heads: 96,
      layers: 96,
      micro: 1,
      recompute: 'selective',
    });
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

  it('adds activations whole to the sharded model states: the calculator’s default total per GPU', () => {
    const states = zeroPerGpuBreakdown({ ...MEMORY_CALCULATOR_DEFAULTS }).total;
    const d = ACTIVATION_CALCULATOR_DEFAULTS;
    const got = perGpuWithActivations(states, d, d.recompute);
    expect(got.total).toBe(states + 82_141_249_536);
    // Micro-batch is linear; so is sequence length outside the attention-score term.
    expect(perGpuWithActivations(0, { ...d, micro: 4 }, 'selective').activations).toBe(
      4 * 82_141_249_536,
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
