import { linkPreset } from '../../figures/link-presets';
import {
  DILOCO,
  flatRingSeconds,
  hierarchicalSeconds,
  jobSurvival,
  llama3FailureRates,
  LLAMA3_INTERRUPTIONS,
  localSgdCommReduction,
  reshardReads,
} from '../../figures/operating-at-scale';
import { sig, type ProblemSet } from './types';

const cluster = {
  nodes: 16,
  gpusPerNode: 8,
  intra: linkPreset('nvlink'),
  inter: linkPreset('infiniband'),
};
const grads = 7e9 * 2;
const flat = flatRingSeconds(grads, cluster);
const hier = hierarchicalSeconds(grads, cluster);
const rates = llama3FailureRates();
const survive = jobSurvival(1024, 24, rates.perGpuMtbfHours);
const reads = reshardReads(1001, 4, 2, 1);

export const problemSet: ProblemSet = {
  chapter: '09-operating-at-scale',
  problems: [
    {
      title: 'Flat against hierarchical all-reduce',
      setup: `7B bf16 gradients (14 GB) on 16 nodes × 8 GPUs: NVLink inside nodes, one ${cluster.inter.label} NIC per GPU between them (α–β model).`,
      steps: [
        {
          prompt: 'How many network-latency steps does a flat ring over all 128 GPUs pay?',
          value: 2 * (128 - 1),
          unit: '',
          tolerance: 0.001,
          solution: '2(N − 1) = 254 steps.',
        },
        {
          prompt: 'How long does the flat ring take?',
          value: flat * 1e3,
          unit: 'ms',
          tolerance: 0.02,
          solution: `Every byte crosses the network at the NIC's rate: ${sig(flat * 1e3)} ms.`,
        },
        {
          prompt:
            'How long does the hierarchical scheme take (reduce-scatter in the node, all-reduce of 1/8 across nodes, all-gather in the node)?',
          value: hier.total * 1e3,
          unit: 'ms',
          tolerance: 0.02,
          solution: `${sig(hier.intra * 1e3)} ms over NVLink + ${sig(hier.inter * 1e3)} ms across the nodes (each rail carries 1/8 of the data) = ${sig(hier.total * 1e3)} ms.`,
        },
      ],
    },
    {
      title: 'Failures at scale',
      setup: `Llama 3 reported ${LLAMA3_INTERRUPTIONS.unexpected} unexpected interruptions in ${LLAMA3_INTERRUPTIONS.days} days on ${LLAMA3_INTERRUPTIONS.gpus} GPUs.`,
      steps: [
        {
          prompt: 'How many hours passed between interruptions on average?',
          value: rates.jobMtbfHours,
          unit: 'h',
          tolerance: 0.02,
          solution: `${LLAMA3_INTERRUPTIONS.days} × 24 / ${LLAMA3_INTERRUPTIONS.unexpected} = ${sig(rates.jobMtbfHours)} h.`,
          mistakes: [
            {
              value: LLAMA3_INTERRUPTIONS.unexpected / LLAMA3_INTERRUPTIONS.days,
              why: 'That is interruptions per day; the time between them is its inverse, in hours.',
            },
          ],
        },
        {
          prompt: 'If failures are independent, what MTBF per GPU does that imply?',
          value: rates.perGpuMtbfHours,
          unit: 'h',
          tolerance: 0.02,
          solution: `${sig(rates.jobMtbfHours)} h × ${LLAMA3_INTERRUPTIONS.gpus} GPUs = ${sig(rates.perGpuMtbfHours)} h, about ${sig(rates.perGpuMtbfHours / 8766, 2)} years.`,
        },
        {
          prompt: 'What percentage of 24-hour runs on 1024 such GPUs finish without a failure?',
          value: survive * 100,
          unit: '%',
          tolerance: 0.02,
          solution: `exp(−1024 × 24 / ${sig(rates.perGpuMtbfHours)}) = ${sig(survive * 100)} %: checkpoint often.`,
        },
      ],
    },
    {
      title: 'Resharding and local SGD',
      setup:
        'A flat vector of 1001 elements was saved by 4 ranks in shards of ⌈1001/4⌉ = 251, and is loaded by 2 ranks in shards of 501. Separately, DiLoCo synchronises every H inner steps.',
      steps: [
        {
          prompt: 'From how many saved shards does the new rank 1 read?',
          value: reads.length,
          unit: '',
          tolerance: 0.001,
          solution: `Rank 1 owns [501, 1001): old shards ${reads.map((r) => r.from).join(', ')}.`,
          mistakes: [
            { value: 2, why: "Rank 1's range also takes one element of old shard 1 ([251, 502))." },
          ],
        },
        {
          prompt: `With H = ${DILOCO.innerSteps}, by what factor does DiLoCo cut the communication rounds?`,
          value: localSgdCommReduction(DILOCO.innerSteps),
          unit: 'x',
          tolerance: 0.001,
          solution: `One exchange per ${DILOCO.innerSteps} steps instead of one per step: ${localSgdCommReduction(DILOCO.innerSteps)}×.`,
        },
      ],
    },
  ],
};
