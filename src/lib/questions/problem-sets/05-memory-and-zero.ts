import { commBytesPerRank, commRatioToDdp } from '../../figures/comm-volume';
import { H100_MEMORY_BYTES } from '../../figures/efficiency';
import { zeroPerGpuBreakdown, zeroPerGpuBytes } from '../../figures/zero-memory';
import { sig, type ProblemSet } from './types';

const mem = (strategy: 'ddp' | 'zero1' | 'zero2' | 'zero3', params = 7e9, gpus = 8) =>
  zeroPerGpuBreakdown({ params, gpus, strategy, accounting: 'paper' });
const fewestGpus = (() => {
  for (let g = 1; g <= 1024; g++)
    if (zeroPerGpuBytes({ params: 70e9, gpus: g, strategy: 'zero3' }) <= H100_MEMORY_BYTES)
      return g;
  return Infinity;
})();
const gb = (b: number) => `${sig(b / 1e9)} GB`;

export const problemSet: ProblemSet = {
  chapter: '05-memory-and-zero',
  problems: [
    {
      title: 'One model, four stages',
      setup:
        "7B parameters, mixed-precision Adam in DeepSpeed's layout (2 + 2 + 12 bytes per parameter), 8 GPUs. Count model states per GPU.",
      steps: [
        {
          prompt: 'DDP?',
          value: mem('ddp').total / 1e9,
          unit: 'GB',
          tolerance: 0.01,
          solution: `Everything replicated: 7e9 × 16 B = ${gb(mem('ddp').total)}.`,
          mistakes: [
            {
              value: mem('ddp').total / 8e9,
              why: 'DDP shards nothing: each GPU holds the full 16 bytes per parameter.',
            },
          ],
        },
        {
          prompt: 'ZeRO-1?',
          value: mem('zero1').total / 1e9,
          unit: 'GB',
          tolerance: 0.01,
          solution: `Weights ${gb(mem('zero1').params)} + gradients ${gb(mem('zero1').grads)} + optimizer state ${gb(mem('zero1').optimizer)} (84 GB / 8) = ${gb(mem('zero1').total)}.`,
        },
        {
          prompt: 'ZeRO-2?',
          value: mem('zero2').total / 1e9,
          unit: 'GB',
          tolerance: 0.01,
          solution: `Weights stay whole (${gb(mem('zero2').params)}); gradients ${gb(mem('zero2').grads)} and optimizer state ${gb(mem('zero2').optimizer)} are sharded: ${gb(mem('zero2').total)}.`,
          mistakes: [
            {
              value: (mem('zero2').params + mem('zero2').optimizer) / 1e9,
              why: 'You dropped the gradient shard: ZeRO-2 still holds 1/8 of the gradients.',
            },
          ],
        },
        {
          prompt: 'ZeRO-3?',
          value: mem('zero3').total / 1e9,
          unit: 'GB',
          tolerance: 0.01,
          solution: `All 16 bytes divided by 8: ${gb(mem('zero3').total)}.`,
        },
      ],
    },
    {
      title: 'What ZeRO-3 costs in traffic',
      setup: 'The same model with bf16 parameters and gradients on 8 GPUs.',
      steps: [
        {
          prompt: "How many times DDP's per-rank traffic does ZeRO-3 move?",
          value: commRatioToDdp('zero3'),
          unit: 'x',
          tolerance: 0.01,
          solution: `Two all-gathers of the parameters (forward, backward) and one reduce-scatter of the gradients: 3Ψ against DDP's 2Ψ, ${sig(commRatioToDdp('zero3'))}×.`,
          mistakes: [
            {
              value: 3,
              why: "3 is ZeRO-3's volume in units of Ψ; DDP moves 2Ψ, so the ratio is 1.5.",
            },
          ],
        },
        {
          prompt: 'How many bytes does each rank send per step under ZeRO-3?',
          value: commBytesPerRank('zero3', 7e9, 2, 8) / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `3 × (n − 1)/n × 14 GB = ${gb(commBytesPerRank('zero3', 7e9, 2, 8))}.`,
        },
      ],
    },
    {
      title: 'Fitting 70B',
      setup:
        '70B parameters, the same 16 bytes per parameter, ZeRO-3, 80 GB GPUs; count model states only.',
      steps: [
        {
          prompt: 'Per-GPU model states on 8 GPUs?',
          value: mem('zero3', 70e9, 8).total / 1e9,
          unit: 'GB',
          tolerance: 0.01,
          solution: `70e9 × 16 B / 8 = ${gb(mem('zero3', 70e9, 8).total)}: it does not fit.`,
        },
        {
          prompt: 'What is the fewest GPUs on which they fit in 80 GB?',
          value: fewestGpus,
          unit: '',
          tolerance: 0.001,
          solution: `${gb(mem('zero3', 70e9, 1).total)} / 80 GB, rounded up: ${fewestGpus} GPUs, before activations; in practice you round up to whole nodes (16).`,
          mistakes: [
            {
              value: 16,
              why: '16 is the next whole number of 8-GPU nodes; the question asks for the fewest GPUs.',
            },
          ],
        },
      ],
    },
  ],
};
