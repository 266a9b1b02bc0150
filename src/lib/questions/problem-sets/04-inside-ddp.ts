import { ringBytesSentPerRank } from '../../figures/collective-costs';
import { bucketCapBytes, DDP_BUCKET_CAP_MB } from '../../figures/ddp-buckets';
import { DDP_EXAMPLE } from '../../figures/ddp-time-example';
import { computeSeconds, estimateStep, shapeForWorld } from '../../figures/efficiency';
import { sig, type ProblemSet } from './types';

const gpus = DDP_EXAMPLE.nodes * DDP_EXAMPLE.gpusPerNode;
const step = estimateStep({
  params: DDP_EXAMPLE.params,
  tokensPerGpu: DDP_EXAMPLE.tokens.large,
  cluster: shapeForWorld(DDP_EXAMPLE.preset, gpus),
});
const perToken = computeSeconds(DDP_EXAMPLE.params, 1, 'backward');
const backward = computeSeconds(DDP_EXAMPLE.params, DDP_EXAMPLE.tokens.large, 'backward');
const gradBytes = DDP_EXAMPLE.params * 2;
const perAllReduce = ringBytesSentPerRank(gpus, gradBytes);

export const problemSet: ProblemSet = {
  chapter: '04-inside-ddp',
  problems: [
    {
      title: 'Hiding the all-reduce behind backward',
      setup: `${sig(DDP_EXAMPLE.params / 1e9)}B parameters on ${gpus} H100s (${DDP_EXAMPLE.nodes} nodes), bf16 gradients, the book's cluster model and 40 % of peak.`,
      steps: [
        {
          prompt: 'How many bytes of gradients does each step all-reduce?',
          value: gradBytes / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `${sig(DDP_EXAMPLE.params / 1e9)} × 10⁹ × 2 B = ${sig(gradBytes / 1e9)} GB.`,
          mistakes: [
            {
              value: (DDP_EXAMPLE.params * 4) / 1e9,
              why: 'That counts fp32 gradients; they are bf16, 2 bytes each.',
            },
          ],
        },
        {
          prompt: 'How long does the all-reduce take in the cluster model?',
          value: step.allReduce * 1e3,
          unit: 'ms',
          tolerance: 0.02,
          solution: `The model picks ${step.collective.algorithm} and predicts ${sig(step.allReduce * 1e3)} ms (simulated cluster).`,
        },
        {
          prompt: 'How many tokens per GPU make backward exactly as long as the all-reduce?',
          value: step.breakEvenTokensPerGpu,
          unit: '',
          tolerance: 0.03,
          solution: `Backward costs 4N FLOPs per token: ${sig(perToken * 1e6)} µs per token at 40 % of peak, so ${sig(step.allReduce * 1e3)} ms / ${sig(perToken * 1e6)} µs ≈ ${sig(step.breakEvenTokensPerGpu)} tokens.`,
          mistakes: [
            {
              value: (step.breakEvenTokensPerGpu * 4) / 6,
              why: 'That uses 6N FLOPs per token (forward and backward); only backward runs beside the all-reduce.',
            },
          ],
        },
        {
          prompt: `At ${DDP_EXAMPLE.tokens.large} tokens per GPU, how long is backward?`,
          value: backward * 1e3,
          unit: 'ms',
          tolerance: 0.02,
          solution: `${DDP_EXAMPLE.tokens.large} × ${sig(perToken * 1e6)} µs = ${sig(backward * 1e3)} ms, longer than the all-reduce: the step is compute bound and the buckets hide behind backward.`,
        },
      ],
    },
    {
      title: 'Bucket sizes',
      setup: `DDP's default bucket_cap_mb is ${DDP_BUCKET_CAP_MB}.`,
      steps: [
        {
          prompt: 'How many bytes is one bucket?',
          value: bucketCapBytes(),
          unit: 'B',
          tolerance: 0.005,
          solution: `DDP multiplies by 1024 × 1024: ${DDP_BUCKET_CAP_MB} × 2²⁰ = ${bucketCapBytes()} bytes.`,
          mistakes: [
            {
              value: DDP_BUCKET_CAP_MB * 1e6,
              why: 'DDP reads MB as MiB: it multiplies by 1024 × 1024, not 10⁶.',
            },
          ],
        },
        {
          prompt: `About how many full buckets do ${sig(gradBytes / 1e9)} GB of gradients fill?`,
          value: gradBytes / bucketCapBytes(),
          unit: '',
          tolerance: 0.02,
          solution: `${sig(gradBytes / 1e9)} GB / ${sig(bucketCapBytes() / 1e6)} MB ≈ ${sig(gradBytes / bucketCapBytes())} buckets, each one all-reduce launched as soon as its last gradient is ready.`,
        },
      ],
    },
    {
      title: 'Accumulating with no_sync',
      setup: `The same job accumulates 8 micro-batches per optimizer step.`,
      steps: [
        {
          prompt: 'Without no_sync, how many gradient all-reduces run per optimizer step?',
          value: 8,
          unit: '',
          tolerance: 0.001,
          solution: 'DDP all-reduces after every backward: 8 per optimizer step.',
        },
        {
          prompt: 'How many bytes per rank does no_sync save per optimizer step (ring all-reduce)?',
          value: (7 * perAllReduce) / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `Each all-reduce sends 2(n − 1)/n × ${sig(gradBytes / 1e9)} GB = ${sig(perAllReduce / 1e9)} GB per rank; skipping 7 of 8 saves ${sig((7 * perAllReduce) / 1e9)} GB.`,
          mistakes: [
            {
              value: (8 * perAllReduce) / 1e9,
              why: 'One all-reduce still runs, on the last micro-batch: no_sync saves 7 of the 8.',
            },
          ],
        },
      ],
    },
  ],
};
