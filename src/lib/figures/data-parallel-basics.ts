/**
 * Chapter 1's small worked numbers: how a batch splits across ranks and how large a model can be
 * before a full replica of its training state no longer fits on one accelerator.
 */
import { bytesPerParam, type Optimizer, type Precision } from './zero-memory';

/** Rows each rank gets when `batch` rows are dealt to `ranks` ranks as evenly as possible. */
export function shardSizes(batch: number, ranks: number): number[] {
  if (!Number.isInteger(batch) || batch < 0)
    throw new Error(`batch must be a non-negative integer, got ${batch}`);
  if (!Number.isInteger(ranks) || ranks < 1)
    throw new Error(`ranks must be a positive integer, got ${ranks}`);
  const base = Math.floor(batch / ranks);
  return Array.from({ length: ranks }, (_, r) => base + (r < batch % ranks ? 1 : 0));
}

/** Training-state bytes per parameter for one full replica (weights + gradients + optimizer state). */
export function replicaBytesPerParam(precision: Precision, optimizer: Optimizer): number {
  const b = bytesPerParam(precision, optimizer, 'paper');
  return b.params + b.grads + b.optimizer;
}

/** Largest parameter count whose replicated training state fits in `memoryBytes`, activations ignored. */
export function largestReplicatedModel(
  memoryBytes: number,
  precision: Precision,
  optimizer: Optimizer,
): number {
  return Math.floor(memoryBytes / replicaBytesPerParam(precision, optimizer));
}

/** The chapter's running example: one global batch, four ranks. */
export const CHAPTER1_EXAMPLE = { globalBatch: 256, ranks: 4 } as const;
