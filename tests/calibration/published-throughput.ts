/**
 * Published training throughput the simulation reproduces (issue 31, end to end): tokens/s per GPU as
 * torchtitan reports it, FSDP2 only (the book's subject), with the run's shape as published.
 */
import {
  fsdpStep,
  H100_GRAND_TETON,
  LLAMA3_8B,
  type FsdpRun,
  type FsdpStep,
} from '../../src/lib/figures/training-throughput.ts';
import { GPUS } from '../../playground/simulation/presets.ts';

export interface PublishedThroughput {
  id: string;
  /** What was published, in its own words where short. */
  figure: string;
  source: string;
  tokensPerSecondPerGpu: number;
  run: FsdpRun;
  /** Why the preset stands for the measured cluster, or what the reproduction leaves out. */
  note: string;
}

const TITAN_2024_12 =
  'https://github.com/pytorch/torchtitan/blob/820504e20d1149fbf0b98c567af24c4b0433b22d/benchmarks/llama3_h100_202412_torchtitan.md';
const TITAN_DOCS =
  'https://github.com/pytorch/torchtitan/blob/4d88a8a44fe439f73f564b83d60b29a906ef3507/docs/performance.md';

export const PUBLISHED_THROUGHPUT: readonly PublishedThroughput[] = [
  {
    id: 'torchtitan-llama3.1-8b-8xh100',
    figure:
      'Table 1, FSDP (no torch.compile, no Float8): Llama 3.1 8B, 8 GPUs, local batch 2, seq 8192, selective AC: 5,762 TPS/GPU',
    source: `${TITAN_2024_12} (torch 1963fc8, torchtitan 9dec370, Dec 2024)`,
    tokensPerSecondPerGpu: 5762,
    run: {
      preset: 'h100-ndr',
      nodes: 1,
      gpusPerNode: 8,
      model: LLAMA3_8B,
      localBatch: 2,
      gpu: H100_GRAND_TETON,
    },
    note: 'Grand Teton: 8 H100 on NVLink; the GPU is the 500 W HBM2e part (H100_GRAND_TETON)',
  },
  {
    id: 'torchtitan-llama3.1-8b-128xh100',
    figure:
      'Table 3, FSDP (no torch.compile, no Float8): Llama 3.1 8B, 128 GPUs, local batch 2, seq 8192, selective AC: 5,605 TPS/GPU',
    source: `${TITAN_2024_12} (torch 1963fc8, torchtitan 9dec370, Dec 2024)`,
    tokensPerSecondPerGpu: 5605,
    run: {
      preset: 'h100-ndr',
      nodes: 16,
      gpusPerNode: 8,
      model: LLAMA3_8B,
      localBatch: 2,
      gpu: H100_GRAND_TETON,
    },
    note: '"backend RDMA network with 400 Gb/s per GPU": h100-ndr has 8 NDR 400 Gb/s NICs per node',
  },
  {
    id: 'torchtitan-llama3-8b-64xa100',
    figure:
      'Llama 3 8B on 64 A100 80GB, FSDP2, local batch 1, seq 8192, selective layer AC: 2,904 WPS (MFU 56.8 %)',
    source: `${TITAN_DOCS} ("Llama 3 performance numbers", Dec 2024)`,
    tokensPerSecondPerGpu: 2904,
    run: { preset: 'a100-hdr', nodes: 8, gpusPerNode: 8, model: LLAMA3_8B, localBatch: 1 },
    note: 'the network is not published; a100-hdr (DGX A100, 8 × HDR 200 Gb/s) stands for it. The step is compute bound on any of the book’s A100 fabrics',
  },
];

export interface ThroughputRow {
  published: PublishedThroughput;
  predicted: FsdpStep;
  /** predicted / published − 1. */
  error: number;
}

export function throughputRows(): ThroughputRow[] {
  return PUBLISHED_THROUGHPUT.map((p) => {
    const predicted = fsdpStep(p.run);
    return {
      published: p,
      predicted,
      error: predicted.tokensPerSecondPerGpu / p.tokensPerSecondPerGpu - 1,
    };
  });
}

/** The same rows with the H100 SXM datasheet peak instead of the power-capped part's: how much the choice matters. */
export function throughputRowsAtSxmPeak(): ThroughputRow[] {
  return PUBLISHED_THROUGHPUT.map((p) => {
    const predicted = fsdpStep({
      ...p.run,
      gpu: p.run.gpu === H100_GRAND_TETON ? GPUS.h100 : p.run.gpu,
    });
    return {
      published: p,
      predicted,
      error: predicted.tokensPerSecondPerGpu / p.tokensPerSecondPerGpu - 1,
    };
  });
}

export function throughputMarkdown(): string {
  const sxm = throughputRowsAtSxmPeak();
  const lines = [
    '| figure | source | published tok/s/GPU | predicted | error | with H100 SXM peak | exposed comm / step |',
    '|---|---|---|---|---|---|---|',
  ];
  throughputRows().forEach((r, i) =>
    lines.push(
      `| ${r.published.id} | ${r.published.source} | ${r.published.tokensPerSecondPerGpu} | ${r.predicted.tokensPerSecondPerGpu.toFixed(0)} | ${(r.error * 100).toFixed(1)} % | ${(sxm[i]!.error * 100).toFixed(1)} % | ${(r.predicted.exposedCommSeconds * 1e3).toFixed(1)} ms / ${(r.predicted.stepSeconds * 1e3).toFixed(0)} ms |`,
    ),
  );
  return lines.join('\n');
}
