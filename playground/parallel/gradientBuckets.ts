/** PyTorch's `dist._DEFAULT_FIRST_BUCKET_BYTES`: the first bucket is small so its all-reduce starts early. */
export const DEFAULT_FIRST_BUCKET_MB = 1;
/** PyTorch DDP's default `bucket_cap_mb`. */
export const DEFAULT_BUCKET_CAP_MB = 25;

/** A run of parameters whose gradients travel in one collective. */
export interface GradientBucket {
  /** Parameter indices in the order gradients become ready (reverse registration order). */
  readonly params: readonly number[];
  readonly bytes: number;
}

/**
 * Assigns parameters to buckets as DDP's `compute_bucket_assignment_by_size` does once it rebuilds its
 * buckets in gradient-ready order after the first iteration: walk parameters in reverse registration
 * order, close a bucket once it reaches its cap (the first cap is the small one, so the first
 * all-reduce starts early). Before that rebuild, PyTorch walks registration order and reverses the list.
 */
export function planBuckets(paramBytes: readonly number[], opts: { bucketCapMB?: number; firstBucketCapMB?: number } = {}): GradientBucket[] {
  const caps = [(opts.firstBucketCapMB ?? DEFAULT_FIRST_BUCKET_MB) * 2 ** 20, (opts.bucketCapMB ?? DEFAULT_BUCKET_CAP_MB) * 2 ** 20];
  const buckets: GradientBucket[] = [];
  let current: number[] = [];
  let bytes = 0;
  for (let i = paramBytes.length - 1; i >= 0; i--) {
    current.push(i);
    bytes += paramBytes[i]!;
    if (bytes >= caps[Math.min(buckets.length, 1)]!) {
      buckets.push({ params: current, bytes });
      current = [];
      bytes = 0;
    }
  }
  if (current.length) buckets.push({ params: current, bytes });
  return buckets;
}
