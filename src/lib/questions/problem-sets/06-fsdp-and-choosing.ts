import { hsdpBytesPerRank } from '../../figures/operating-at-scale';
import { zeroPerGpuBreakdown } from '../../figures/zero-memory';
import { sig, type ProblemSet } from './types';

const fsdp = (strategy: 'zero2' | 'zero3') =>
  zeroPerGpuBreakdown({ params: 7e9, gpus: 8, strategy, layout: 'fp32-weights' });
const unit = (7e9 * 2) / 32;
const hsdp = hsdpBytesPerRank(7e9, 2, 8, 16);
const gb = (b: number) => `${sig(b / 1e9)} GB`;

export const problemSet: ProblemSet = {
  chapter: '06-fsdp-and-choosing',
  problems: [
    {
      title: 'FULL_SHARD against SHARD_GRAD_OP',
      setup:
        "PyTorch FSDP, 7B parameters, fp32 sharded weights with param_dtype=bf16, Adam, 8 GPUs: PyTorch's 4 + 4 + 8 layout.",
      steps: [
        {
          prompt: 'Per-GPU model states at the peak with FULL_SHARD (ZeRO-3)?',
          value: fsdp('zero3').total / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `Everything sharded: ${gb(fsdp('zero3').total)}, plus one or two gathered units at a time.`,
        },
        {
          prompt: 'And with SHARD_GRAD_OP (ZeRO-2)?',
          value: fsdp('zero2').total / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `The shards as before plus the bf16 copy of the whole model kept from forward to backward: ${gb(fsdp('zero2').total)}.`,
          mistakes: [
            {
              value: fsdp('zero3').total / 1e9,
              why: 'SHARD_GRAD_OP keeps the gathered bf16 parameters from forward until backward: add the whole-model copy.',
            },
          ],
        },
      ],
    },
    {
      title: 'One unit at a time',
      setup: 'The same model is wrapped as 32 equal FSDP units and gathered in bf16.',
      steps: [
        {
          prompt: "How many bytes does one unit's all-gather materialise on each GPU?",
          value: unit / 1e6,
          unit: 'MB',
          tolerance: 0.02,
          solution: `14 GB / 32 = ${sig(unit / 1e6)} MB, the whole unit on every GPU until it is freed.`,
          mistakes: [
            {
              value: unit / 8e6,
              why: "That is one GPU's shard of the unit; the all-gather rebuilds the whole unit on every GPU.",
            },
          ],
        },
        {
          prompt:
            'With the next unit prefetched while the current one computes, how many bytes of gathered parameters are alive at once?',
          value: (2 * unit) / 1e6,
          unit: 'MB',
          tolerance: 0.02,
          solution: `Two units: ${sig((2 * unit) / 1e6)} MB. Prefetching hides the gather's latency at the price of one more unit of memory.`,
        },
      ],
    },
    {
      title: 'HSDP on 16 nodes',
      setup:
        'HSDP shards the 7B bf16 model within each 8-GPU node and replicates it across 16 nodes.',
      steps: [
        {
          prompt:
            'How many bytes does each GPU all-gather per step inside its node (forward and backward)?',
          value: hsdp.allGather / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `2 × (8 − 1)/8 × 14 GB = ${gb(hsdp.allGather)}, over NVLink.`,
        },
        {
          prompt:
            'How many bytes does each GPU send across the network for the all-reduce of its gradient shard?',
          value: hsdp.allReduce / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `Its shard is 14 GB / 8 = 1.75 GB; a ring all-reduce over 16 replicas sends 2 × 15/16 of it: ${gb(hsdp.allReduce)}.`,
          mistakes: [
            {
              value: (2 * (15 / 16) * 14e9) / 1e9,
              why: 'That all-reduces the whole gradient; in HSDP each GPU all-reduces only its 1/8 shard across replicas.',
            },
          ],
        },
      ],
    },
  ],
};
