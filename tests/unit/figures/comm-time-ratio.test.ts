import { describe, expect, it } from 'vitest';
import {
  COMM_TIME_CASES,
  COMM_TIME_MODEL,
  commTimeRows,
} from '../../../src/lib/figures/comm-time-ratio';
import { commRatioToDdp } from '../../../src/lib/figures/comm-volume';

describe('FSDP / ZeRO-3 communication time against DDP’s, per preset (issue 31)', () => {
  const rows = commTimeRows();
  const byId = (label: string) => rows.find((r) => r.label === label)!;

  it('has one row per case, each beside the 1.5× byte ratio', () => {
    expect(rows).toHaveLength(COMM_TIME_CASES.length);
    expect(commRatioToDdp('zero3')).toBe(1.5);
    expect(rows.every((r) => r.byteRatio === 1.5)).toBe(true);
    expect(COMM_TIME_MODEL).toEqual({ params: 7e9, layers: 32, bytesPerParam: 2 });
  });

  it('over the whole gradient at once, NVLink SHARP makes the time ratio exceed the byte ratio inside an H100 node; rings keep it near 1.5×', () => {
    expect(byId('h100-ndr, 1 node × 8 GPUs').timeRatioWhole).toBeGreaterThan(1.9);
    expect(byId('h100-ndr-no-nvls, 1 node × 8 GPUs').timeRatioWhole).toBeCloseTo(1.5, 1);
    expect(byId('a100-hdr, 1 node × 8 GPUs').timeRatioWhole).toBeCloseTo(1.5, 1);
  });

  it('pins the printed ratios (simulated cluster, NCCL 2.30.7 model, 7B bf16, 25 MiB buckets, 32 units)', () => {
    expect(rows.map((r) => [r.label, r.timeRatio.toFixed(2), r.timeRatioWhole.toFixed(2)])).toEqual(
      PINNED,
    );
  });
});

// Across nodes DDP's 25 MiB buckets run as trees with LL128, whose pipeline ramp (calcCollChunking's
// chunks, nstepsLL128 deep) costs more at bucket size than before, so the bucketed ratio fell below 1.
// The cross-node NVLS-tree pipeline ramp (fitted on nccl-tests#309's 2-node sweep) then made DDP's
// multi-node all-reduces slower (FSDP's all-gathers and reduce-scatters run on rings, unchanged), so
// the ratios fell where NVLS-tree runs: 8 H100 nodes 0.88 -> 0.74, aws-p5-efa 0.78 -> 0.74 (whole
// gradient 1.60 -> 1.58), h100-2nic 1.23 -> 0.98.
const PINNED: [string, string, string][] = [
  ['h100-ndr, 1 node × 8 GPUs', '1.17', '1.92'],
  ['h100-ndr-no-nvls, 1 node × 8 GPUs', '1.09', '1.50'],
  ['a100-hdr, 1 node × 8 GPUs', '1.18', '1.50'],
  ['h100-ndr, 8 nodes × 8 GPUs', '0.74', '1.60'],
  ['aws-p5-efa, 8 nodes × 8 GPUs', '0.74', '1.58'],
  ['a100-roce, 8 nodes × 8 GPUs', '0.84', '1.50'],
  ['h100-2nic, 8 nodes × 8 GPUs', '0.98', '1.50'],
  ['a100-100gbe, 2 nodes × 8 GPUs', '1.82', '2.59'],
];
