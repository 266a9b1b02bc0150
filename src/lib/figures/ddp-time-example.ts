/**
 * Chapter 4's worked DDP example, also used by its cards: a 7B model on 64 GPUs as eight DGX H100
 * nodes, at a comfortable and a small per-GPU batch.
 */
import type { PresetId } from '../../../playground/simulation/index.ts';

export const DDP_EXAMPLE: {
  params: number;
  preset: PresetId;
  presetWithoutNvls: PresetId;
  nodes: number;
  gpusPerNode: number;
  tokens: { large: number; small: number };
} = {
  params: 7e9,
  preset: 'h100-ndr',
  presetWithoutNvls: 'h100-ndr-no-nvls',
  nodes: 8,
  gpusPerNode: 8,
  tokens: { large: 4096, small: 512 },
};
