/** What the widgets show before the reader touches them; chapters quote the same values. */
import type { LinkId } from './link-presets';
import type { MixedPrecisionLayout, Optimizer, Precision, Strategy } from './zero-memory';
import { DEFAULT_MFU } from './efficiency';

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

export const COMM_ESTIMATOR_DEFAULTS: {
  params: number;
  gpus: number;
  link: LinkId;
  tokensPerGpu: number;
  mfu: number;
} = {
  params: 7e9,
  gpus: 64,
  link: 'infiniband',
  tokensPerGpu: 4096,
  mfu: DEFAULT_MFU,
};
