import { globalBatchSize, batchTokens } from '../../figures/batch-scaling';
import {
  largestReplicatedModel,
  replicaBytesPerParam,
  shardSizes,
} from '../../figures/data-parallel-basics';
import { H100_MEMORY_BYTES } from '../../figures/efficiency';
import { sig, type ProblemSet } from './types';

const shards = shardSizes(1003, 8);
const perParam = replicaBytesPerParam('bf16-mixed', 'adam');
const largest = largestReplicatedModel(H100_MEMORY_BYTES, 'bf16-mixed', 'adam');
const batch = globalBatchSize(16, 8, 4);

export const problemSet: ProblemSet = {
  chapter: '01-what-is-data-parallelism',
  problems: [
    {
      title: 'Dealing out a batch',
      setup:
        'A global batch of 1003 examples is dealt to 8 ranks as evenly as possible; each rank computes the mean-loss gradient of its shard.',
      steps: [
        {
          prompt: 'How many examples does the largest shard hold?',
          value: Math.max(...shards),
          unit: '',
          tolerance: 0.001,
          solution: `1003 = 8 × 125 + 3, so three ranks get 126 and five get 125: the largest shard holds ${Math.max(...shards)}.`,
          mistakes: [
            {
              value: 125,
              why: '125 is 1003/8 rounded down; the 3 left over go to three ranks, which get one more.',
            },
          ],
        },
        {
          prompt:
            'By what factor must rank 0 (a 126-example shard) scale its gradient before a SUM all-reduce so the result is the full-batch mean gradient?',
          value: shards[0]! / 1003,
          unit: '',
          tolerance: 0.001,
          solution: `Each shard's mean stands for its share of the examples: ${shards[0]}/1003 = ${sig(shards[0]! / 1003, 4)}. A plain average would give every rank 1/8 = 0.125.`,
        },
      ],
    },
    {
      title: 'What fits on one accelerator',
      setup:
        'Mixed-precision Adam keeps bf16 weights and gradients, fp32 master weights and two fp32 moments (ZeRO paper accounting). The accelerator has 80 GB.',
      steps: [
        {
          prompt: 'How many bytes of model state does each parameter need?',
          value: perParam,
          unit: 'B',
          tolerance: 0.001,
          solution: `2 + 2 + 4 + 4 + 4 = ${perParam} bytes per parameter.`,
          mistakes: [
            { value: 12, why: '12 bytes leaves out the fp32 master copy of the weights.' },
          ],
        },
        {
          prompt: 'Ignoring activations, how many parameters fit on one accelerator?',
          value: largest,
          unit: '',
          tolerance: 0.02,
          solution: `80 × 10⁹ B / ${perParam} B = ${sig(largest)} parameters.`,
        },
        {
          prompt: 'With plain data parallelism over 8 such accelerators, how many parameters fit?',
          value: largest,
          unit: '',
          tolerance: 0.02,
          solution: `Still ${sig(largest)}: plain data parallelism replicates the whole model state on every rank, so more ranks add throughput, not memory. Sharding (ZeRO, chapter 5) changes that.`,
          mistakes: [
            {
              value: largest * 8,
              why: 'Plain data parallelism replicates the model on every rank: 8 GPUs do not hold 8 times the model.',
            },
          ],
        },
      ],
    },
    {
      title: 'Counting the global batch',
      setup:
        '8 ranks each run micro-batches of 16 sequences of 2048 tokens and accumulate 4 micro-batches per optimizer step.',
      steps: [
        {
          prompt: 'How many sequences does one optimizer step average over?',
          value: batch,
          unit: '',
          tolerance: 0.001,
          solution: `16 × 8 × 4 = ${batch} sequences.`,
          mistakes: [
            { value: 128, why: '16 × 8 = 128 leaves out the 4 accumulated micro-batches.' },
          ],
        },
        {
          prompt: 'How many tokens is that?',
          value: batchTokens(batch, 2048),
          unit: '',
          tolerance: 0.001,
          solution: `${batch} × 2048 = ${batchTokens(batch, 2048)} tokens, about ${sig(batchTokens(batch, 2048) / 1e6, 2)}M.`,
        },
      ],
    },
  ],
};
