import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUCKET_CAP_MB, DEFAULT_FIRST_BUCKET_MB, planBuckets } from '../../../playground/parallel/gradientBuckets.ts';

const MB = 2 ** 20;
const PYTHON = '/usr/bin/python3';
const hasTorch = spawnSync(PYTHON, ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;
if (!hasTorch) console.warn(`gradientBuckets: PyTorch comparison skipped, "${PYTHON} -c 'import torch'" failed`);

describe('planBuckets', () => {
  it('walks parameters in reverse registration order', () => {
    const buckets = planBuckets([100, 200, 300], {});
    expect(buckets).toEqual([{ params: [2, 1, 0], bytes: 600 }]);
  });

  it('closes a small first bucket, then buckets at the cap, as DDP does', () => {
    // Ten 0.6 MB tensors: first bucket closes at ≥ 1 MB (2 tensors), the rest at ≥ 2 MB (4 tensors).
    const buckets = planBuckets(Array.from({ length: 10 }, () => 0.6 * MB), { bucketCapMB: 2, firstBucketCapMB: 1 });
    expect(buckets.map((b) => b.params)).toEqual([[9, 8], [7, 6, 5, 4], [3, 2, 1, 0]]);
  });

  it('gives an oversized parameter a bucket of its own', () => {
    const buckets = planBuckets([30 * MB, 1000, 40 * MB], {});
    expect(buckets.map((b) => b.params)).toEqual([[2], [1, 0]]);
  });
});

/** Parameter byte sizes of an MLP in registration order (weight, bias per layer). */
const mlpBytes = (widths: number[]) => widths.slice(1).flatMap((out, i) => [out * widths[i]! * 4, out * 4]);

describe.skipIf(!hasTorch)('planBuckets vs PyTorch DDP (torch.distributed._compute_bucket_assignment_by_size)', () => {
  it('assigns the same buckets as DDP\'s rebuilt buckets, with the default 1 MB / 25 MB caps and small ones', () => {
    const cases = [
      { bytes: mlpBytes([512, 512, 512, 512, 512, 512, 512, 512, 10]), first_mb: DEFAULT_FIRST_BUCKET_MB, cap_mb: DEFAULT_BUCKET_CAP_MB },
      { bytes: mlpBytes([2048, 2048, 2048, 1024, 1024, 10]), first_mb: DEFAULT_FIRST_BUCKET_MB, cap_mb: DEFAULT_BUCKET_CAP_MB },
      { bytes: mlpBytes([512, 512, 512, 512, 512, 512, 512, 512, 10]), first_mb: 1, cap_mb: 1 },
      { bytes: Array.from({ length: 10 }, () => Math.round(0.15 * MB) * 4), first_mb: 1, cap_mb: 2 },
      { bytes: [30 * MB, 1000, 40 * MB], first_mb: 1, cap_mb: 25 },
    ];
    const run = spawnSync(PYTHON, [fileURLToPath(new URL('../../reference/bucket_assignment.py', import.meta.url))], { input: JSON.stringify({ cases }), encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const torch = JSON.parse(run.stdout) as { buckets: number[][][] };
    cases.forEach((c, i) => {
      const ours = planBuckets(c.bytes, { firstBucketCapMB: c.first_mb, bucketCapMB: c.cap_mb }).map((b) => b.params);
      expect(ours, `case ${i}`).toEqual(torch.buckets[i]);
    });
    // The default caps really do split these models: more than one bucket, the first one small.
    expect(torch.buckets[1]!.length).toBeGreaterThan(1);
  }, 60_000);
});
