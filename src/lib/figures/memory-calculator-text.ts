/** The memory calculator's explanatory line, shared by the server render and the client update. */
import {
  bytesPerParam,
  MIXED_PRECISION_LAYOUTS,
  type MixedPrecisionLayout,
  type Optimizer,
  type Precision,
  type Strategy,
} from './zero-memory';

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
  return choice.strategy === 'zero2'
    ? `${note} Its ZeRO-2 is FSDP SHARD_GRAD_OP: fp32 shards plus a ${copy}-byte copy of the whole model held from forward to backward.`
    : note;
}
