import type { ChargedModel } from '../simulation/charged-model.ts';

/** PyTorch's `dist._DEFAULT_FIRST_BUCKET_BYTES` (1 MiB), used only while `bucket_cap_mb` is left at its default. */
export const DEFAULT_FIRST_BUCKET_MB = 1;
/** PyTorch DDP's default `bucket_cap_mb`. */
export const DEFAULT_BUCKET_CAP_MB = 25;

const MiB = 2 ** 20;
const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/** A run of parameters whose gradients travel in one collective. */
export interface GradientBucket {
  /** Parameter indices in bucket order. */
  readonly params: readonly number[];
  readonly bytes: number;
}

/** The DDP options that decide bucket sizes. */
export interface BucketOptions {
  /** Undefined means PyTorch's default: 25 MiB buckets behind a 1 MiB first bucket. */
  bucketCapMB?: number;
  /** Stands for `dist._DEFAULT_FIRST_BUCKET_BYTES` (in MiB); like it, ignored once `bucketCapMB` is set. */
  firstBucketCapMB?: number;
  findUnusedParameters?: boolean;
}

/**
 * The size limits DDP hands `_compute_bucket_assignment_by_size`, in bytes (torch/nn/parallel/distributed.py,
 * `_ddp_init_helper`, and reducer.cpp, `Reducer::rebuild_buckets`). At construction with
 * `find_unused_parameters=False` it is `[sys.maxsize]`: one bucket, since registration order is only a
 * guess; with `find_unused_parameters=True` it is `[first, cap]`, or `[cap]` when `bucket_cap_mb` was given.
 * The one rebuild after the first iteration uses `[first, cap]`, where `first` is the cap itself when
 * `bucket_cap_mb` was given.
 */
export function bucketSizeLimits(
  phase: 'construction' | 'rebuild',
  opts: BucketOptions = {},
): number[] {
  const custom = opts.bucketCapMB !== undefined;
  const cap = Math.trunc((opts.bucketCapMB ?? DEFAULT_BUCKET_CAP_MB) * MiB);
  const first = custom ? cap : Math.trunc((opts.firstBucketCapMB ?? DEFAULT_FIRST_BUCKET_MB) * MiB);
  if (phase === 'rebuild') return [first, cap];
  if (!opts.findUnusedParameters) return [Number.POSITIVE_INFINITY];
  return custom ? [cap] : [first, cap];
}

/**
 * `compute_bucket_assignment_by_size` for one dtype: walk parameters in `order`, close a bucket once it
 * reaches its limit (so the gradient that fills it may overshoot), then move to the next limit and
 * stay on the last one.
 */
export function assignBuckets(
  paramBytes: readonly number[],
  order: readonly number[],
  limits: readonly number[],
): GradientBucket[] {
  const buckets: GradientBucket[] = [];
  let current: number[] = [];
  let bytes = 0;
  for (const i of order) {
    current.push(i);
    bytes += paramBytes[i]!;
    if (bytes >= limits[Math.min(buckets.length, limits.length - 1)]!) {
      buckets.push({ params: current, bytes });
      current = [];
      bytes = 0;
    }
  }
  if (current.length) buckets.push({ params: current, bytes });
  return buckets;
}

/**
 * DDP's buckets at construction: assigned in registration order, then the list reversed, because
 * backward roughly produces gradients last layer first. With the default `find_unused_parameters=False`
 * this is one bucket holding every parameter.
 */
export function constructionBuckets(
  paramBytes: readonly number[],
  opts: BucketOptions = {},
): GradientBucket[] {
  return assignBuckets(
    paramBytes,
    paramBytes.map((_, i) => i),
    bucketSizeLimits('construction', opts),
  ).reverse();
}

/** DDP's buckets after its one rebuild: assigned in the order gradients arrived in the first iteration. */
export function rebuiltBuckets(
  paramBytes: readonly number[],
  arrivalOrder: readonly number[],
  opts: BucketOptions = {},
): GradientBucket[] {
  return assignBuckets(paramBytes, arrivalOrder, bucketSizeLimits('rebuild', opts));
}

/**
 * The rebuilt assignment for a model whose gradients arrive in reverse registration order (a sequential
 * model): what DDP settles on from the second iteration, and the layout ZeRO-1/2 reduce-scatter in.
 */
export function planBuckets(
  paramBytes: readonly number[],
  opts: BucketOptions = {},
): GradientBucket[] {
  return rebuiltBuckets(
    paramBytes,
    paramBytes.map((_, i) => paramBytes.length - 1 - i),
    opts,
  );
}

/**
 * DDP's buckets of the charged model, cut as `_compute_bucket_assignment_by_size` cuts them: one bucket
 * at construction, then after the first iteration in gradient-arrival order (reverse registration, as for
 * a model whose forward runs its layers in order) with `[first bucket, cap]`.
 */
export function chargedBuckets(
  model: ChargedModel,
  bytesPerElement: number,
  rebuilt: boolean,
  opts: BucketOptions,
): GradientBucket[] {
  const bytes = model.params.map((p) => p.elements * bytesPerElement);
  return rebuilt
    ? rebuiltBuckets(
        bytes,
        bytes.map((_, i) => bytes.length - 1 - i),
        opts,
      )
    : constructionBuckets(bytes, opts);
}

/** How the step report names DDP's charged buckets. */
export function describeBuckets(
  buckets: readonly GradientBucket[],
  opts: BucketOptions,
  rebuilt: boolean,
): string {
  const total = buckets.reduce((a, b) => a + b.bytes, 0);
  const cap = opts.bucketCapMB ?? 25;
  const limits = !rebuilt
    ? 'one bucket before the rebuild'
    : opts.bucketCapMB === undefined
      ? `${opts.firstBucketCapMB ?? 1} MiB first, ${cap} MiB cap`
      : `${cap} MiB cap`;
  const largest = Math.max(...buckets.map((b) => b.bytes));
  return `${buckets.length} DDP bucket all-reduce${buckets.length === 1 ? '' : 's'} (${limits}; largest ${(largest / MiB).toFixed(0)} MiB), ${gb(total)} per step`;
}
