import {
  activationBytes,
  activationBytesPerLayer,
  GPT3_175B,
  recomputeOverhead,
} from '../../figures/activation-memory';
import { FORMATS, hookWireBytes, maxFinite } from '../../figures/mixed-precision';
import { sig, type ProblemSet } from './types';

const gpt3 = { ...GPT3_175B, micro: 1 };
const layer = activationBytesPerLayer(gpt3);
const selective = activationBytesPerLayer(gpt3, 'selective');

export const problemSet: ProblemSet = {
  chapter: '07-activations-and-precision',
  problems: [
    {
      title: "GPT-3's activations",
      setup:
        'GPT-3 175B: sequence 2048, hidden 12288, 96 heads, 96 layers; micro-batch 1, 16-bit activations, no tensor parallelism.',
      steps: [
        {
          prompt: 'How many bytes of activations does one layer keep for backward?',
          value: layer / 1e9,
          unit: 'GB',
          tolerance: 0.03,
          solution: `sbh(34 + 5as/h) = 2048 × 12288 × (34 + 80) = ${sig(layer / 1e9)} GB.`,
          mistakes: [
            {
              value: (2048 * 12288 * 34) / 1e9,
              why: 'That is sbh · 34 alone: you left out the attention term 5as²b.',
            },
          ],
        },
        {
          prompt: 'And all 96 layers?',
          value: activationBytes(gpt3) / 1e9,
          unit: 'GB',
          tolerance: 0.03,
          solution: `96 × ${sig(layer / 1e9)} GB = ${sig(activationBytes(gpt3) / 1e9)} GB, per micro-batch, on top of the model states: data parallelism does not shard it.`,
        },
        {
          prompt:
            'With selective recomputation (attention scores recomputed), how many bytes per layer?',
          value: selective / 1e9,
          unit: 'GB',
          tolerance: 0.03,
          solution: `Only sbh · 34 stays: ${sig(selective / 1e9)} GB per layer.`,
        },
      ],
    },
    {
      title: 'The price of full recomputation',
      setup: 'Forward costs F and backward about 2F.',
      steps: [
        {
          prompt:
            'By what percentage does full recomputation increase the training FLOPs of GPT-3 175B?',
          value: recomputeOverhead(gpt3, 'full') * 100,
          unit: '%',
          tolerance: 0.03,
          solution: `It reruns each layer's forward once more: 4F instead of 3F, ${sig(recomputeOverhead(gpt3, 'full') * 100)} %.`,
          mistakes: [
            {
              value: 50,
              why: '50 % compares F with backward alone; the baseline is the whole step, 3F.',
            },
          ],
        },
        {
          prompt: 'And selective recomputation?',
          value: recomputeOverhead(gpt3, 'selective') * 100,
          unit: '%',
          tolerance: 0.05,
          solution: `Only the attention scores are recomputed: ${sig(recomputeOverhead(gpt3, 'selective') * 100, 2)} % more FLOPs.`,
        },
      ],
    },
    {
      title: 'Precision on the wire',
      setup: 'DDP all-reduces 1 billion gradients on a ring of 8 ranks.',
      steps: [
        {
          prompt: 'In fp32, how many bytes does each rank send per step?',
          value: hookWireBytes(1e9, 8, 'fp32') / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `2 × 7/8 × 4 GB = ${sig(hookWireBytes(1e9, 8, 'fp32') / 1e9)} GB.`,
        },
        {
          prompt: 'With bf16_compress_hook?',
          value: hookWireBytes(1e9, 8, 'bf16') / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `The hook casts to 2-byte bf16 before sending: half, ${sig(hookWireBytes(1e9, 8, 'bf16') / 1e9)} GB.`,
        },
        {
          prompt:
            'What is the largest finite value an fp16 number can hold, the ceiling loss scaling must respect?',
          value: maxFinite(FORMATS.fp16),
          unit: '',
          tolerance: 0.001,
          solution: `(2 − 2⁻¹⁰) · 2¹⁵ = ${maxFinite(FORMATS.fp16)}; bf16's 8 exponent bits reach about ${sig(maxFinite(FORMATS.bf16), 2)}, which is why bf16 needs no loss scaling.`,
          mistakes: [
            {
              value: 32767,
              why: '32,767 is the largest 16-bit signed integer; fp16 spends bits on an exponent.',
            },
          ],
        },
      ],
    },
  ],
};
