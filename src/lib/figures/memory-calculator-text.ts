/** The memory calculator's explanatory lines, shared by the server render and the client update. */
import {
  activationBytesPerLayer,
  type Recompute,
  type TransformerShape,
} from './activation-memory';
import {
  bytesPerParam,
  MIXED_PRECISION_LAYOUTS,
  type MixedPrecisionLayout,
  type Optimizer,
  type Precision,
  type Strategy,
} from './zero-memory';
import { fmtGB } from './format-quantities';

export function layoutNote(choice: {
  precision: Precision;
  optimizer: Optimizer;
  layout: MixedPrecisionLayout;
  strategy?: Strategy;
}): string {
  const b = bytesPerParam(choice.precision, choice.optimizer, 'paper', choice.layout);
  const split = `${b.params} + ${b.grads} + ${b.optimizer} bytes per parameter`;
  if (choice.precision === 'fp32')
    return `fp32 training: ${split}; the layout choice applies to mixed precision only.`;
  if (choice.layout === 'half-weights')
    return `${MIXED_PRECISION_LAYOUTS['half-weights'].frameworks}: half-precision weights and gradients, the optimizer state includes an fp32 master copy (${split}, K = ${b.optimizer}).`;
  const note = `${MIXED_PRECISION_LAYOUTS['fp32-weights'].frameworks}: fp32 weights and gradients, low precision only in compute, no master copy (${split}).`;
  const copy = MIXED_PRECISION_LAYOUTS['fp32-weights'].computeCopy;
  if (choice.strategy === 'zero2')
    return `${note} Its ZeRO-2 is FSDP SHARD_GRAD_OP: fp32 shards plus a ${copy}-byte copy of the whole model held from forward to backward.`;
  if (choice.strategy === 'ddp' || choice.strategy === 'zero1')
    return `${note} Its DDP and ZeRO-1 run under autocast, which saves each weight's ${copy}-byte bf16 cast for backward: a copy of the whole model from forward to backward (DDP's bucket buffers, as large as the gradients, come on top unless gradient_as_bucket_view=True).`;
  return note;
}

/** How the calculator names each recomputation mode (Korthikanti et al. 2022, §5). */
export const RECOMPUTE_LABEL: Record<Recompute, string> = {
  none: 'None: keep every activation',
  selective: 'Selective: recompute attention scores',
  full: 'Full: keep each layer input only',
};

/** The per-layer formula the calculator applies, in the paper's symbols (16-bit activations, no tensor parallelism). */
export const ACTIVATION_FORMULA: Record<Recompute, string> = {
  none: 'L · sbh(34 + 5as/h)',
  selective: 'L · 34sbh',
  full: 'L · 2sbh',
};

/** Why a layer shape cannot be computed, or null when it can. */
export function activationInputError(x: TransformerShape & { layers: number }): string | null {
  const whole = [x.seq, x.micro, x.hidden, x.layers, x.heads].every(
    (v) => Number.isInteger(v) && v >= 1,
  );
  if (!whole)
    return 'Sequence length, micro-batch, hidden size, layers and heads must be whole numbers (at least 1).';
  if (x.hidden % x.heads !== 0)
    return `The hidden size (${x.hidden}) must divide evenly by the number of heads (${x.heads}).`;
  return null;
}

/**
 * What one GPU holds with activations on top of its model states: activations are per rank (data
 * parallelism, ZeRO and FSDP shard none of them), so the total adds them whole.
 */
export function perGpuWithActivations(
  modelStates: number,
  x: TransformerShape & { layers: number },
  recompute: Recompute,
): { perLayer: number; activations: number; total: number } {
  const perLayer = activationBytesPerLayer(x, recompute);
  const activations = perLayer * x.layers;
  return { perLayer, activations, total: modelStates + activations };
}

/** Whether the per-GPU total fits one GPU's memory, and by how much, as the calculator says it. */
export function fitVerdict(
  totalBytes: number,
  gpuMemoryBytes: number,
): { fits: boolean; text: string } {
  const fits = totalBytes <= gpuMemoryBytes;
  return {
    fits,
    text: fits
      ? `Fits in ${fmtGB(gpuMemoryBytes)} per GPU, ${fmtGB(gpuMemoryBytes - totalBytes)} to spare before temporary buffers.`
      : `Does not fit in ${fmtGB(gpuMemoryBytes)} per GPU: ${fmtGB(totalBytes - gpuMemoryBytes)} over.`,
  };
}
