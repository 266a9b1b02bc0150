import { busBandwidthFactor, ringAllReduceSeconds } from '../../figures/all-reduce-time';
import {
  latencyBandwidthCrossover,
  ringBytesSentPerRank,
  rootBytesReceivedNaive,
} from '../../figures/collective-costs';
import { linkPreset } from '../../figures/link-presets';
import { sig, type ProblemSet } from './types';

const ib = linkPreset('infiniband');
const D = 1e9 * 2; // 1B bf16 gradients
const n = 16;
const ring = ringBytesSentPerRank(n, D);
const root = rootBytesReceivedNaive(n, D);
const bwTerm = ring / ib.bandwidth;
const latTerm = 2 * (n - 1) * ib.alpha;
const crossover = latencyBandwidthCrossover(n, ib);

export const problemSet: ProblemSet = {
  chapter: '02-collectives',
  problems: [
    {
      title: 'Ring against root',
      setup: `A 1B-parameter model's bf16 gradients (D = 2 GB) are summed over ${n} ranks.`,
      steps: [
        {
          prompt: 'With a ring all-reduce, how many bytes does each rank send?',
          value: ring / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `2(n − 1)/n · D = 2 × 15/16 × 2 GB = ${sig(ring / 1e9)} GB.`,
          mistakes: [
            {
              value: ring / 2e9,
              why: 'You forgot the 2 in 2(n − 1)/n: reduce-scatter and all-gather each send (n − 1)/n · D.',
            },
            {
              value: ring / 16e9,
              why: 'You divided by n twice: 2(n − 1)/n · D already counts chunks of D/n.',
            },
          ],
        },
        {
          prompt:
            'If instead every rank sends its gradient to rank 0, how many bytes does rank 0 receive?',
          value: root / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `(n − 1) · D = 15 × 2 GB = ${sig(root / 1e9)} GB, and as much again to send the sum back.`,
          mistakes: [
            { value: (n * D) / 1e9, why: 'Rank 0 does not send to itself: 15 senders, not 16.' },
          ],
        },
        {
          prompt: "How many times the ring's per-rank bytes is that?",
          value: root / ring,
          unit: 'x',
          tolerance: 0.01,
          solution: `${sig(root / 1e9)} / ${sig(ring / 1e9)} = ${sig(root / ring)}×, which is n/2: the root's link grows with n, the ring's stays under 2D.`,
        },
      ],
    },
    {
      title: 'The α–β cost of that ring',
      setup: `The ranks are linked by ${ib.label} at ${sig(ib.bandwidth / 1e9)} GB/s each way with α = ${sig(ib.alpha * 1e6)} µs per ring step.`,
      steps: [
        {
          prompt:
            'What is the bandwidth term, the bytes each rank sends divided by the link bandwidth?',
          value: bwTerm * 1e3,
          unit: 'ms',
          tolerance: 0.02,
          solution: `${sig(ring / 1e9)} GB / ${sig(ib.bandwidth / 1e9)} GB/s = ${sig(bwTerm * 1e3)} ms.`,
          mistakes: [
            {
              value: (ring / (ib.bandwidth * 8)) * 1e3,
              why: 'That treats the link as bits: GB/s is already bytes per second.',
            },
          ],
        },
        {
          prompt: 'What is the latency term, 2(n − 1) steps of α each?',
          value: latTerm * 1e3,
          unit: 'ms',
          tolerance: 0.02,
          solution: `2 × 15 × ${sig(ib.alpha * 1e6)} µs = ${sig(latTerm * 1e6)} µs: negligible at 2 GB.`,
        },
        {
          prompt: 'At what message size are the two terms equal?',
          value: crossover / 1e6,
          unit: 'MB',
          tolerance: 0.02,
          solution: `Setting 2(n − 1)α = 2(n − 1)/n · D/B gives D* = n · α · B = ${n} × ${sig(ib.alpha * 1e6)} µs × ${sig(ib.bandwidth / 1e9)} GB/s = ${sig(crossover / 1e6)} MB. Whole-model all-reduces are far above it; small buckets are not. The full time is ${sig(ringAllReduceSeconds(D, n, ib) * 1e3)} ms.`,
          mistakes: [
            { value: crossover / n / 1e6, why: 'You left out n: D* = n · α · bandwidth.' },
          ],
        },
      ],
    },
    {
      title: 'Reading nccl-tests',
      setup: `nccl-tests reports an all-reduce over ${n} GPUs at an algorithm bandwidth of 100 GB/s.`,
      steps: [
        {
          prompt: 'By what factor does it scale algorithm bandwidth to bus bandwidth?',
          value: busBandwidthFactor('all-reduce', n),
          unit: 'x',
          tolerance: 0.01,
          solution: `2(n − 1)/n = 30/16 = ${sig(busBandwidthFactor('all-reduce', n))}.`,
        },
        {
          prompt: 'What bus bandwidth does it print?',
          value: 100 * busBandwidthFactor('all-reduce', n),
          unit: 'GB/s',
          tolerance: 0.01,
          solution: `100 GB/s × ${sig(busBandwidthFactor('all-reduce', n))} = ${sig(100 * busBandwidthFactor('all-reduce', n))} GB/s, comparable with the link's peak whatever n is.`,
          mistakes: [
            {
              value: 100,
              why: '100 GB/s is the algorithm bandwidth; bus bandwidth multiplies it by 2(n − 1)/n.',
            },
          ],
        },
      ],
    },
  ],
};
