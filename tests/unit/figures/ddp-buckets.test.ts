import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  assignBuckets,
  bucketCapBytes,
  DDP_BROADCAST_BUCKET_BYTES,
  DDP_BUCKET_CAP_MB,
  DDP_FIRST_BUCKET_BYTES,
  mlpParams,
} from '../../../src/lib/figures/ddp-buckets';

// Debian's python3-torch ships DDP's Python source; read the defaults from it when it is installed.
const TORCH_DDP = '/usr/lib/python3/dist-packages/torch/nn/parallel/distributed.py';

describe('PyTorch DDP bucket defaults', () => {
  it('bucket_cap_mb = 25, in MiB (25 × 1024 × 1024 bytes); first bucket 1 MiB; broadcast 250 MiB', () => {
    expect(DDP_BUCKET_CAP_MB).toBe(25);
    expect(bucketCapBytes()).toBe(26_214_400);
    expect(DDP_FIRST_BUCKET_BYTES).toBe(1_048_576);
    expect(DDP_BROADCAST_BUCKET_BYTES).toBe(262_144_000);
  });
  it.runIf(existsSync(TORCH_DDP))('match the installed torch source', () => {
    const src = readFileSync(TORCH_DDP, 'utf8');
    expect(src).toMatch(new RegExp(`bucket_cap_mb=${DDP_BUCKET_CAP_MB},`));
    expect(src).toContain('self.bucket_bytes_cap = int(bucket_cap_mb * 1024 * 1024)');
    expect(src).toContain('self.broadcast_bucket_size = int(250 * 1024 * 1024)');
    expect(src).toContain('dist._DEFAULT_FIRST_BUCKET_BYTES');
  });
});

describe('bucket assignment', () => {
  it('walks parameters in reverse registration order', () => {
    const b = assignBuckets(
      [
        { name: 'a', bytes: 10 },
        { name: 'b', bytes: 10 },
        { name: 'c', bytes: 10 },
      ],
      1000,
      1000,
    );
    expect(b).toEqual([{ params: ['c', 'b', 'a'], bytes: 30, limit: 1000 }]);
  });
  it('closes a small first bucket, then uses the cap; a bucket may overshoot by its last tensor', () => {
    const p = [1, 2, 3, 4, 5, 6].map((i) => ({ name: `p${i}`, bytes: 400 }));
    const b = assignBuckets(p, 1000, 500);
    expect(b.map((x) => x.params)).toEqual([['p6', 'p5'], ['p4', 'p3', 'p2'], ['p1']]);
    expect(b.map((x) => x.limit)).toEqual([500, 1000, 1000]);
    expect(b[1]!.bytes).toBe(1200);
  });
  it('every parameter lands in exactly one bucket', () => {
    const params = mlpParams([1024, 4096, 4096, 4096, 1024]);
    const names = assignBuckets(params).flatMap((b) => b.params);
    expect(names.slice().sort()).toEqual(params.map((p) => p.name).sort());
    expect(names[0]).toBe('layer3.bias');
  });
});
