import { Lcg } from './lcg.ts';

export interface DistributedSamplerOptions {
  numReplicas: number;
  rank: number;
  /** Reshuffle every epoch with `seed + epoch` (default true). */
  shuffle?: boolean;
  seed?: number;
  /** Drop the tail so every rank gets floor(N / W) rows; otherwise pad by repeating the first indices. */
  dropLast?: boolean;
}

/**
 * Deals dataset indices to ranks like `torch.utils.data.DistributedSampler`: optional seeded shuffle,
 * padding (or dropping) to a multiple of the world size, then every W-th index from `rank`.
 * The shuffle uses the book's LCG, so it is reproducible but not the same permutation as torch.randperm.
 */
export class DistributedSampler {
  readonly length: number;
  readonly numReplicas: number;
  readonly rank: number;
  readonly shuffle: boolean;
  readonly seed: number;
  readonly dropLast: boolean;
  private epoch = 0;

  constructor(length: number, opts: DistributedSamplerOptions) {
    if (opts.rank < 0 || opts.rank >= opts.numReplicas)
      throw new Error(`rank ${opts.rank} outside [0, ${opts.numReplicas})`);
    this.length = length;
    this.numReplicas = opts.numReplicas;
    this.rank = opts.rank;
    this.shuffle = opts.shuffle ?? true;
    this.seed = opts.seed ?? 0;
    this.dropLast = opts.dropLast ?? false;
  }

  /** Rows each rank receives. */
  get numSamples(): number {
    return this.dropLast
      ? Math.floor(this.length / this.numReplicas)
      : Math.ceil(this.length / this.numReplicas);
  }

  /** Change the shuffle for the next epoch, as PyTorch's `set_epoch`. */
  setEpoch(epoch: number): void {
    this.epoch = epoch;
  }

  /** This rank's indices for the current epoch. */
  indices(): number[] {
    let order = Array.from({ length: this.length }, (_, i) => i);
    if (this.shuffle) order = seededShuffle(order, this.seed + this.epoch);
    const total = this.numSamples * this.numReplicas;
    if (this.dropLast) order = order.slice(0, total);
    else while (order.length < total) order = order.concat(order.slice(0, total - order.length));
    const mine: number[] = [];
    for (let i = this.rank; i < total; i += this.numReplicas) mine.push(order[i]!);
    return mine;
  }
}

/** Fisher–Yates driven by the shared LCG. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const rng = new Lcg(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(((rng.next() + 1) / 2) * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Deliberately unequal contiguous shards, e.g. `unequalShards([6, 5, 5])` gives rank 0 rows 0–5,
 * rank 1 rows 6–10, rank 2 rows 11–15: the case where plain averaging of shard gradients is wrong.
 */
export function unequalShards(sizes: readonly number[]): number[][] {
  let start = 0;
  return sizes.map((n) => {
    const rows = Array.from({ length: n }, (_, i) => start + i);
    start += n;
    return rows;
  });
}
