/** What the widgets show before the reader touches them; chapters quote the same values. */
import type { PresetId } from '../../../playground/simulation/index.ts';
import type { MixedPrecisionLayout, Optimizer, Precision, Strategy } from './zero-memory';
import { DEFAULT_MFU } from './efficiency';
import { GPT3_175B, type Recompute, type TransformerShape } from './activation-memory';

export const MEMORY_CALCULATOR_DEFAULTS: {
  params: number;
  precision: Precision;
  layout: MixedPrecisionLayout;
  optimizer: Optimizer;
  gpus: number;
  strategy: Strategy;
} = {
  params: 70e9,
  precision: 'bf16-mixed',
  layout: 'half-weights',
  optimizer: 'adam',
  gpus: 8,
  strategy: 'zero2',
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
 * The memory calculator's activation inputs: GPT-3 175B's layer shape as Korthikanti et al. 2022 list it
 * (Table 3: s 2048, h 12288, a 96, L 96), micro-batch 1, and the paper's recommended selective recomputation.
 */
export const ACTIVATION_CALCULATOR_DEFAULTS: TransformerShape & {
  layers: number;
  recompute: Recompute;
} = { ...GPT3_175B, micro: 1, recompute: 'selective' };
