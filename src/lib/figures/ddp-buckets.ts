/**
 * How PyTorch DDP groups gradients into buckets: parameters in reverse registration order (the
 * order backward produces their gradients), a small first bucket so communication starts early,
 * then buckets of bucket_cap_mb. Mirrors `compute_bucket_assignment_by_size` in c10d's reducer.
 */

/** torch.nn.parallel.DistributedDataParallel(bucket_cap_mb=25); DDP multiplies by 1024 * 1024. */
export const DDP_BUCKET_CAP_MB = 25;
/** c10d reducer.hpp kDefaultFirstBucketBytes = 1024 * 1024 (dist._DEFAULT_FIRST_BUCKET_BYTES). */
export const DDP_FIRST_BUCKET_BYTES = 1024 * 1024;
/** DDP broadcasts rank 0's parameters and buffers at construction in 250 MiB chunks. */
export const DDP_BROADCAST_BUCKET_BYTES = 250 * 1024 * 1024;

export function bucketCapBytes(bucketCapMB = DDP_BUCKET_CAP_MB): number {
  return Math.trunc(bucketCapMB * 1024 * 1024);
}

export interface ParamSpec {
  name: string;
  bytes: number;
}

export interface Bucket {
  params: string[];
  bytes: number;
  limit: number;
}

/**
 * Assign parameters (given in registration order) to buckets. A bucket closes once it reaches its
 * limit, so the last gradient in it may push it past the cap, as in PyTorch.
 */
export function assignBuckets(
  paramsInRegistrationOrder: ParamSpec[],
  capBytes = bucketCapBytes(),
  firstBucketBytes = DDP_FIRST_BUCKET_BYTES,
): Bucket[] {
  const limits = [Math.min(firstBucketBytes, capBytes), capBytes];
  const buckets: Bucket[] = [];
  let current: Bucket = { params: [], bytes: 0, limit: limits[0]! };
  for (const p of [...paramsInRegistrationOrder].reverse()) {
    current.params.push(p.name);
    current.bytes += p.bytes;
    if (current.bytes >= current.limit) {
      buckets.push(current);
      current = {
        params: [],
        bytes: 0,
        limit: limits[Math.min(buckets.length, limits.length - 1)]!,
      };
    }
  }
  if (current.params.length > 0) buckets.push(current);
  return buckets;
}

/** Parameter list of a plain MLP (weights then bias per layer), fp32 bytes. */
export function mlpParams(widths: number[], bytesPerElement = 4): ParamSpec[] {
  const out: ParamSpec[] = [];
  for (let i = 0; i + 1 < widths.length; i++) {
    out.push({ name: `layer${i}.weight`, bytes: widths[i]! * widths[i + 1]! * bytesPerElement });
    out.push({ name: `layer${i}.bias`, bytes: widths[i + 1]! * bytesPerElement });
  }
  return out;
}
