import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasTorch, PYTHON } from '../../reference/python.ts';
import {
  bucketSizeLimits,
  constructionBuckets,
  planBuckets,
  rebuiltBuckets,
} from '../../../playground/parallel/gradient-buckets.ts';

const MB = 2 ** 20;
if (!hasTorch)
  console.warn(`gradientBuckets: PyTorch comparison skipped, "${PYTHON} -c 'import torch'" failed`);

describe('DDP bucket assignment', () => {
  it('walks parameters in reverse registration order once rebuilt', () => {
    expect(planBuckets([100, 200, 300])).toEqual([{ params: [2, 1, 0], bytes: 600 }]);
  });

  it('closes a 1 MiB first bucket, then 25 MiB ones, with the default caps', () => {
    // Ten 0.6 MiB tensors: the first bucket closes at ≥ 1 MiB (2 tensors); the other 4.8 MiB stay under 25 MiB.
    const bytes = Array.from({ length: 10 }, () => 0.6 * MB);
    expect(planBuckets(bytes).map((b) => b.params)).toEqual([
      [9, 8],
      [7, 6, 5, 4, 3, 2, 1, 0],
    ]);
    expect(bucketSizeLimits('rebuild')).toEqual([MB, 25 * MB]);
  });

  it('has no small first bucket once bucket_cap_mb is given', () => {
    const bytes = Array.from({ length: 10 }, () => 0.6 * MB);
    expect(bucketSizeLimits('rebuild', { bucketCapMB: 2 })).toEqual([2 * MB, 2 * MB]);
    expect(planBuckets(bytes, { bucketCapMB: 2 }).map((b) => b.params)).toEqual([
      [9, 8, 7, 6],
      [5, 4, 3, 2],
      [1, 0],
    ]);
  });

  it('starts from one bucket with find_unused_parameters=False, and rebuilds in arrival order', () => {
    const bytes = [30 * MB, 1000, 40 * MB];
    expect(constructionBuckets(bytes).map((b) => b.params)).toEqual([[0, 1, 2]]);
    expect(rebuiltBuckets(bytes, [2, 1, 0]).map((b) => b.params)).toEqual([[2], [1, 0]]);
  });

  it('with find_unused_parameters=True, buckets come from registration order, reversed, the small one last', () => {
    const bytes = Array.from({ length: 10 }, () => 0.6 * MB);
    expect(
      constructionBuckets(bytes, { findUnusedParameters: true, bucketCapMB: 25 }).map(
        (b) => b.params,
      ),
    ).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]]);
    expect(constructionBuckets(bytes, { findUnusedParameters: true }).map((b) => b.params)).toEqual(
      [
        [2, 3, 4, 5, 6, 7, 8, 9],
        [0, 1],
      ],
    );
  });
});

/** Parameter byte sizes of an MLP in registration order (weight, bias per layer). */
const mlpBytes = (widths: number[]) =>
  widths.slice(1).flatMap((out, i) => [out * widths[i]! * 4, out * 4]);

interface TorchCase {
  construction: number[][];
  rebuilt: number[][] | null;
}

describe.skipIf(!hasTorch)(
  'DDP bucket assignment vs PyTorch (tests/reference/bucket_assignment.py)',
  () => {
    const widths = [
      [512, 512, 512, 512, 512, 512, 512, 512, 10],
      [2048, 2048, 2048, 1024, 1024, 10],
    ];
    const cases = [
      ...widths.flatMap((w) => [
        { bytes: mlpBytes(w), bucket_cap_mb: null, find_unused: false },
        { bytes: mlpBytes(w), bucket_cap_mb: null, find_unused: true },
      ]),
      { bytes: mlpBytes(widths[0]!), bucket_cap_mb: 1, find_unused: false },
      { bytes: mlpBytes(widths[0]!), bucket_cap_mb: 1, find_unused: true },
      {
        bytes: Array.from({ length: 10 }, () => Math.round(0.15 * MB) * 4),
        bucket_cap_mb: 2,
        find_unused: false,
      },
      { bytes: [30 * MB, 1000, 40 * MB], bucket_cap_mb: null, find_unused: false },
    ];
    const run = hasTorch
      ? spawnSync(
          PYTHON,
          [fileURLToPath(new URL('../../reference/bucket_assignment.py', import.meta.url))],
          {
            input: JSON.stringify({
              cases,
              ddp: widths.flatMap((w) => [
                { widths: w, find_unused: false },
                { widths: w, find_unused: true },
              ]),
            }),
            encoding: 'utf8',
            timeout: 120_000,
          },
        )
      : null;
    const torch =
      run?.status === 0
        ? (JSON.parse(run.stdout) as {
            cases: TorchCase[];
            ddp: {
              construction: number[];
              rebuilt: number[] | null;
              rebuilt_params: number[][] | null;
            }[];
          })
        : null;

    it('the reference script ran', () => {
      expect(run?.status, run?.stderr).toBe(0);
    });

    it("assigns the same buckets as torch's _compute_bucket_assignment_by_size, at construction and after the rebuild", () => {
      cases.forEach((c, i) => {
        const opts = {
          bucketCapMB: c.bucket_cap_mb ?? undefined,
          findUnusedParameters: c.find_unused,
        };
        expect(
          constructionBuckets(c.bytes, opts).map((b) => b.params),
          `case ${i} construction`,
        ).toEqual(torch!.cases[i]!.construction);
        const rebuilt = c.find_unused ? null : planBuckets(c.bytes, opts).map((b) => b.params);
        expect(rebuilt, `case ${i} rebuilt`).toEqual(torch!.cases[i]!.rebuilt);
      });
      // The default caps really do split these models once rebuilt: more than one bucket, the first one small.
      expect(torch!.cases[2]!.rebuilt!.length).toBeGreaterThan(1);
    });

    it('a live torch 1.13 DDP logs the same bucket sizes: one bucket at construction, the rebuilt ones after the first iteration', () => {
      widths.forEach((w, i) => {
        const bytes = mlpBytes(w);
        const [plain, unused] = [torch!.ddp[2 * i]!, torch!.ddp[2 * i + 1]!];
        expect(plain.construction).toEqual(constructionBuckets(bytes).map((b) => b.bytes));
        expect(plain.rebuilt).toEqual(planBuckets(bytes).map((b) => b.bytes));
        // Gradients really arrive in reverse registration order, each layer's bias before its weight.
        expect(plain.rebuilt_params).toEqual(planBuckets(bytes).map((b) => b.params));
        expect(unused.construction).toEqual(
          constructionBuckets(bytes, { findUnusedParameters: true }).map((b) => b.bytes),
        );
        expect(unused.rebuilt).toBeNull();
      });
    });
  },
);
