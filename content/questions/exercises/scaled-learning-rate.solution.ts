// Linear scaling rule (Goyal et al. 2017) on the global batch, then gradual warm-up.
import { dist } from 'ranks';

function learningRate(
  step: number,
  baseLr: number,
  baseBatch: number,
  micro: number,
  warmup: number,
): number {
  const peak = (baseLr * (micro * dist.worldSize)) / baseBatch;
  return warmup > 0 && step < warmup ? (peak * (step + 1)) / warmup : peak;
}
