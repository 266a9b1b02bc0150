// Each rank trains on `micro` examples per step; `baseLr` was tuned for a global batch of `baseBatch`.
// Return the learning rate for the 0-based `step`: scale it linearly with the real global batch
// (micro-batch × number of ranks), and warm it up linearly from peak/warmup to the peak over the first
// `warmup` steps (no warm-up when warmup is 0).
import { dist } from 'ranks';

function learningRate(
  step: number,
  baseLr: number,
  baseBatch: number,
  micro: number,
  warmup: number,
): number {
  // TODO: the global batch grows with dist.worldSize.
  return baseLr;
}
