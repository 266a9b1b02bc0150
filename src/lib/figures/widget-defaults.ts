/** What the widgets show before the reader touches them; chapters quote the same values. */
import type { PresetId } from '../../../playground/simulation/index.ts';
import type { MixedPrecisionLayout, Optimizer, Precision, Strategy } from './zero-memory';
import { DEFAULT_MFU } from './efficiency';
import {
  GPT3_6_7B,
  GPT3_6_7B_PARAMS,
  type Recompute,
  type TransformerShape,
} from './activation-memory';
import { H100_MEMORY_BYTES } from './efficiency';

/**
 * The memory calculator starts on one real model, GPT-3 6.7B, whose parameter count and layer shape
 * (below) come from the same row of Brown et al. 2020, Table 2.1, on 8 GPUs of the book's H100 80 GB.
 */
export const MEMORY_CALCULATOR_DEFAULTS: {
  params: number;
  precision: Precision;
  layout: MixedPrecisionLayout;
  optimizer: Optimizer;
  gpus: number;
  strategy: Strategy;
  /** Memory of one GPU, bytes: the capacity line and the "fits?" verdict. */
  gpuMemory: number;
} = {
  params: GPT3_6_7B_PARAMS,
  precision: 'bf16-mixed',
  layout: 'half-weights',
  optimizer: 'adam',
  gpus: 8,
  strategy: 'zero2',
  gpuMemory: H100_MEMORY_BYTES,
};

/** The book's 7B example: 64 GPUs as 8 DGX H100 nodes of 8, the cluster chapters 4 and 6 discuss. */
export const COMM_ESTIMATOR_DEFAULTS: {
  params: number;
  preset: PresetId;
  nodes: number;
  gpusPerNode: number;
  tokensPerGpu: number;
  mfu: number;
} = {
  params: 7e9,
  preset: 'h100-ndr',
  nodes: 8,
  gpusPerNode: 8,
  tokensPerGpu: 4096,
  mfu: DEFAULT_MFU,
};

/**
 * The memory calculator's activation inputs: GPT-3 6.7B's own layer shape (Brown et al. 2020, Table 2.1:
 * s 2048, h 4096, a 32, L 32), micro-batch 1, and Korthikanti et al.'s recommended selective recomputation.
 */
export const ACTIVATION_CALCULATOR_DEFAULTS: TransformerShape & {
  layers: number;
  recompute: Recompute;
} = { ...GPT3_6_7B, micro: 1, recompute: 'selective' };
