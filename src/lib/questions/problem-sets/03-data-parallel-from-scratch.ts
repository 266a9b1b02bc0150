import { ringAllReduceSeconds } from '../../figures/all-reduce-time';
import { ringBytesSentPerRank } from '../../figures/collective-costs';
import { shardSizes } from '../../figures/data-parallel-basics';
import { linkPreset } from '../../figures/link-presets';
import { sig, type ProblemSet } from './types';

const shards = shardSizes(10, 4);
const eth = linkPreset('ethernet');
const grads = 25e6 * 4; // 25M fp32 gradients
const comm = ringAllReduceSeconds(grads, 4, eth);
const compute = 0.05;
const efficiency = compute / (compute + comm);

export const problemSet: ProblemSet = {
  chapter: '03-data-parallel-from-scratch',
  problems: [
    {
      title: 'Averaging unequal shards exactly',
      setup:
        'A batch of 10 examples is dealt to 4 ranks as evenly as possible; each computes the mean-loss gradient of its shard.',
      steps: [
        {
          prompt:
            "What weight must rank 0's gradient get so the all-reduced sum is the full-batch gradient?",
          value: shards[0]! / 10,
          unit: '',
          tolerance: 0.01,
          solution: `Shards are ${shards.join(', ')}. Rank 0's mean stands for ${shards[0]} of 10 examples: weight ${shards[0]}/10 = ${sig(shards[0]! / 10)}.`,
          mistakes: [
            {
              value: 0.25,
              why: '1/4 is the plain average; the shards differ in size, so weight each by its share of the examples.',
            },
          ],
        },
        {
          prompt: 'And rank 3?',
          value: shards[3]! / 10,
          unit: '',
          tolerance: 0.01,
          solution: `${shards[3]}/10 = ${sig(shards[3]! / 10)}; the four weights add up to 1.`,
        },
      ],
    },
    {
      title: 'The all-reduce in a hand-written data-parallel step',
      setup: `A 25M-parameter model keeps fp32 gradients (100 MB) and trains on 4 ranks joined by ${eth.label} (${sig(eth.bandwidth / 1e9)} GB/s, α = ${sig(eth.alpha * 1e6)} µs).`,
      steps: [
        {
          prompt: 'How many bytes does each rank send in the ring all-reduce?',
          value: ringBytesSentPerRank(4, grads) / 1e6,
          unit: 'MB',
          tolerance: 0.02,
          solution: `2 × 3/4 × 100 MB = ${sig(ringBytesSentPerRank(4, grads) / 1e6)} MB.`,
          mistakes: [{ value: 75, why: 'You forgot the 2 in 2(n − 1)/n.' }],
        },
        {
          prompt: 'How long does that all-reduce take in the α–β model?',
          value: comm * 1e3,
          unit: 'ms',
          tolerance: 0.02,
          solution: `2(n − 1)α + 2(n − 1)/n · D / B = ${sig(comm * 1e3)} ms.`,
        },
        {
          prompt:
            'Each rank computes for 50 ms per step and nothing overlaps. What scaling efficiency is that?',
          value: efficiency * 100,
          unit: '%',
          tolerance: 0.02,
          solution: `50 / (50 + ${sig(comm * 1e3)}) = ${sig(efficiency * 100)} %. Overlapping the all-reduce with backward (chapter 4) is how DDP wins this back.`,
          mistakes: [
            {
              value: (comm / (compute + comm)) * 100,
              why: "That is communication's share of the step; efficiency is compute's share.",
            },
          ],
        },
      ],
    },
    {
      title: 'Why averaging is exact',
      setup:
        'Two ranks each hold 2 examples of equal size; their mean gradients on a one-weight model are 0.8 and 0.2.',
      steps: [
        {
          prompt: 'What gradient does the average all-reduce leave on every rank?',
          value: (0.8 + 0.2) / 2,
          unit: '',
          tolerance: 0.001,
          solution:
            'With equal shards the full-batch mean is the mean of the means: (0.8 + 0.2) / 2 = 0.5.',
          mistakes: [
            { value: 1, why: 'That is the SUM; divide by the world size (or use op "avg").' },
          ],
        },
        {
          prompt: 'With learning rate 0.1, by how much does every replica change its weight?',
          value: -0.05,
          unit: '',
          tolerance: 0.001,
          solution:
            'w ← w − 0.1 × 0.5: every replica moves by −0.05, the step one device would take on all 4 examples.',
          mistakes: [
            { value: -0.1, why: 'That uses the summed gradient (1.0); the averaged one is 0.5.' },
          ],
        },
      ],
    },
  ],
};
