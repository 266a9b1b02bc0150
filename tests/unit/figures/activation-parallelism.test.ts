import { describe, expect, it } from 'vitest';
import {
  activationBytesPerLayerPerGpu,
  firstStageActivationBytes,
  firstStageMicroBatchesInFlight,
  NO_MODEL_PARALLELISM,
} from '../../../src/lib/figures/activation-parallelism';
import {
  activationBytes,
  activationBytesPerLayer,
  GPT3_175B,
} from '../../../src/lib/figures/activation-memory';

const gpt3 = { ...GPT3_175B, micro: 1 };
const sbh = 2048 * 12288;

describe('activations under model parallelism (Megatron theoretical_memory_usage.py; Korthikanti et al. 2022)', () => {
  it('without model parallelism it is Eq. 1 and its selective form', () => {
    expect(activationBytesPerLayerPerGpu(gpt3, NO_MODEL_PARALLELISM, 'none')).toBe(
      activationBytesPerLayer(gpt3),
    );
    expect(activationBytesPerLayerPerGpu(gpt3, NO_MODEL_PARALLELISM, 'selective')).toBe(34 * sbh);
  });
  it('tensor parallelism alone leaves 10sbh whole (Eq. 2); sequence parallelism divides all 34sbh by t (compute_activation_memory)', () => {
    const tp = { tensor: 8, sequenceParallel: false, context: 1 };
    expect(activationBytesPerLayerPerGpu(gpt3, tp, 'selective')).toBe(sbh * (10 + 24 / 8));
    expect(activationBytesPerLayerPerGpu(gpt3, tp, 'none')).toBeCloseTo(
      activationBytesPerLayer({ ...gpt3, tensorParallel: 8 }),
      0,
    );
    expect(
      activationBytesPerLayerPerGpu(gpt3, { ...tp, sequenceParallel: true }, 'selective'),
    ).toBe((34 * sbh) / 8);
    // Megatron's 18 + 4·ffn/h with ffn = 4h is the same 34.
    expect(18 + 4 * 4).toBe(34);
  });
  it('context parallelism divides every activation by c (context_parallel.rst: "CP times smaller")', () => {
    const sp = { tensor: 8, sequenceParallel: true, context: 1 };
    for (const mode of ['none', 'selective', 'full'] as const)
      expect(activationBytesPerLayerPerGpu(gpt3, { ...sp, context: 4 }, mode)).toBeCloseTo(
        activationBytesPerLayerPerGpu(gpt3, sp, mode) / 4,
        0,
      );
  });
  it('1F1B: the first stage holds min(m, p) micro-batches of L/p layers, the whole model when m ≥ p', () => {
    const par = { tensor: 8, sequenceParallel: true, context: 1 };
    const one = activationBytesPerLayerPerGpu(gpt3, par, 'selective') * 96;
    expect(
      firstStageActivationBytes(gpt3, par, 'selective', '1f1b', { stages: 8, microBatches: 64 }),
    ).toBeCloseTo(one, 0);
    expect(
      firstStageActivationBytes(gpt3, par, 'selective', '1f1b', { stages: 8, microBatches: 4 }),
    ).toBeCloseTo(one / 2, 0);
    expect(firstStageMicroBatchesInFlight('gpipe', { stages: 8, microBatches: 64 })).toBe(64);
    // Interleaved: Megatron multiplies by 1 + (p − 1)/(p·v).
    expect(
      firstStageMicroBatchesInFlight('interleaved-1f1b', {
        stages: 8,
        microBatches: 64,
        virtualStages: 2,
      }),
    ).toBeCloseTo(8 * (1 + 7 / 16), 12);
    // GPT-3 175B, t = 8 with sequence parallelism, selective recomputation: about 10.3 GB either way.
    expect(one / 1e9).toBeCloseTo(10.27, 2);
    expect(activationBytes(gpt3, 'selective') / 8).toBeCloseTo(one, 0);
  });
});
