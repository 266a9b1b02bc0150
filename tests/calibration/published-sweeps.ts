/**
 * Whole nccl-tests sweeps, as published, that the size-dependent model is held against.
 * Each row is one out-of-place line of all_reduce_perf: size (B) and time (µs); busbw follows from
 * them (nccl-tests doc/PERFORMANCE.md), so points too small to print a busbw still count.
 *
 * `split` says how a sweep is used:
 * - 'fit': the model's fitted constants were read from these; they show the fit, not a prediction.
 *   NVLS_CHUNK_OVERHEAD_BYTES and the NVLS-by-GPU-count check come from the single-node H100 sweeps;
 *   NVLS_TREE_PIPELINE_CHUNKS_PER_LEVEL (the cross-node NVLS-tree pipeline) from the bare-metal
 *   2-node XE9680 sweep of nccl-tests#309 (nccl-tests-309-h100-ndr-2n).
 * - 'held-out': never used to set a constant; the accuracy the book claims is on these.
 * - 'not-modelled': published, recorded, and not predicted, with the reason.
 *
 * History of the split, said plainly because it changed: the XE9680 2-node sweep was first held out.
 * No multi-node H100 sweep was in the fit set, so the cross-node NVLS-tree term had nothing to be
 * fitted on; whole published multi-node NVLS-tree sweeps with a stated fabric are rare (searched:
 * NVIDIA/nccl and NVIDIA/nccl-tests issues, cloud pages; nccl#1244 and nccl#1469 publish only part of
 * their sweeps in reach). So that one sweep moved to 'fit' (the best-documented system: bare metal,
 * 8 NDR NICs per node, NCCL 2.26.2 printed) and its one constant was chosen on it alone, by the
 * smallest RMS log error over its 1 MiB – 1 GiB rows (flat at 0.066 from 0.7 to 0.9 chunks per
 * level; 0.8 taken). The held-out set is the other four: the same cluster family's 2-node run of a
 * different cluster, and 4 and 8 nodes, which the 2-node fit never saw (its tree is one level deep).
 * Those sweeps had been looked at under the earlier model, so they are held out from constants, not
 * from the modeller's eyes; the form (a k / (k + depth) ramp over NCCL's own NVLS-tree chunk rule)
 * mirrors the tree/LL128 ramp already in the model.
 *
 * Held out: oci-a100-roce-2n, nccl-tests-309-h100-vm-4n, nccl-tests-309-h100-8n,
 * nccl-tests-309-h100-2n-b, nccl-tests-309-h100-4n-b (105 points); sweeps.test.ts pins the bands.
 * The last (the 8-node cluster's own 4-node run, published in the same thread) was added after the
 * NVLS-tree term was fitted and predicted as it stood. The mid sizes across more than two nodes stay
 * the weakest regime, now on tree/LL128 (4–16 MiB): the VMware 4-node run is 31–46 % fast at 4–8 MiB,
 * the 8-node cluster up to 2× and its 4-node run up to 1.7× (tests/calibration/not-modelled.ts,
 * whose entries for that cluster were written after seeing those residuals).

 * Caveat, said where the claim is made: the tree/LL128 pipeline ramp (collective-model.ts
 * treeLl128Ramp) was added after seeing the OCI sweep's 256 KiB–8 MiB rows run 21–31 % fast. No
 * number was read from it (chunk sizes and step count are calcCollChunking's; the (k + nsteps) / k
 * form is the model's), but the form was chosen knowing these residuals, so the OCI sweep is held out
 * from constants, not from design. A held-out system that no change looked at is still wanted.
 */
import { clusterPreset, type ClusterPreset } from '../../playground/simulation/presets.ts';
import type { Algorithm, Collective } from '../../playground/simulation/collective-model.ts';

export type SweepSplit = 'fit' | 'held-out' | 'not-modelled';

export interface PublishedSweep {
  id: string;
  system: string;
  gpus: number;
  nodes: number;
  collective: Collective;
  source: string;
  /** When and with what it was measured, as published. */
  date: string;
  version: string;
  split: SweepSplit;
  /** Why the sweep is not modelled, or why the preset stands for the measured system. */
  note: string;
  preset?: ClusterPreset;
  algorithm?: Algorithm;
  /**
   * [size in bytes, time in µs] or, for summary figures, [size, busbw GB/s]. Where nccl-tests' in-place
   * column is published too, the time is the faster of the two (see `fasterOf`); else the out-of-place time.
   */
  rows: readonly (readonly [number, number])[];
  /** Rows give busbw (GB/s) directly instead of time. */
  busbwRows?: boolean;
}

const K = 1024;
const M = K * K;
const G = K * M;
/** nccl-tests' -b 8 -e 8G -f 2 sizes. */
const pow2 = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => from * 2 ** i);
const zip = (sizes: number[], times: number[]) => {
  if (sizes.length !== times.length) throw new Error('a sweep needs one time per size');
  return sizes.map((s, i) => [s, times[i]!] as const);
};
/**
 * nccl-tests times every size twice, out of place and in place: the same all-reduce on the same
 * buffer size. Where a sweep publishes both, a row takes the faster, one rule for every row, so a
 * one-off stall in either run (nccl-tests#309 has 68.52 µs against 24.70 µs at 8 B) is not read as
 * the fabric. Decided for all of nccl-tests#309's sweeps at once, replacing per-row exceptions.
 */
const fasterOf = (outOfPlace: number[], inPlace: number[]) => {
  if (outOfPlace.length !== inPlace.length) throw new Error('both columns need every size');
  return outOfPlace.map((t, i) => Math.min(t, inPlace[i]!));
};

export const PUBLISHED_SWEEPS: readonly PublishedSweep[] = [
  {
    id: 'oci-a100-roce-2n',
    system:
      'OCI BM.GPU4.8: 2 nodes × 8 A100-SXM4-40GB, RoCE cluster network (16 RDMA ports of 100 Gb/s per node)',
    gpus: 16,
    nodes: 2,
    collective: 'all-reduce',
    source:
      'https://github.com/oracle-quickstart/oci-hpc-oke (README.md, "Run the NCCL test", A100 example output, OKE image of 2024-02-12)',
    date: '2024',
    version: 'nccl-tests 2.x (NCCL in the OKE GPU image, driver 535.154.05, CUDA 12.2)',
    split: 'held-out',
    note: 'bare metal, RoCE: preset a100-roce (16 × 100 Gb/s per node as OCI publishes: 1.6 Tb/s per node)',
    preset: clusterPreset('a100-roce'),
    rows: zip(
      pow2(8, 31),
      [
        36.47, 38.86, 38.53, 39.25, 38.85, 40.68, 39.27, 41.97, 43.36, 44.54, 48.16, 49.4, 49.66,
        51.69, 54.86, 67.95, 73.94, 85.58, 99.19, 127.0, 174.3, 282.7, 452.3, 821.7, 1542.0, 3042.7,
        6436.0, 9187.8, 18289, 34176, 67689,
      ],
    ),
  },
  {
    id: 'nccl-tests-309-h100-ndr-2n',
    system:
      'Dell XE9680 bare metal: 2 nodes × 8 H100 SXM, 8 ConnectX-7 NDR 400 Gb/s per node (NVLS-tree by default)',
    gpus: 16,
    nodes: 2,
    collective: 'all-reduce',
    source:
      'https://github.com/NVIDIA/nccl-tests/issues/309 (qoofyk, 2025-05-21, first post: "2 hosts", bm-h100-01/02)',
    date: '2025-05-21',
    version: 'NCCL 2.26.2+cuda12.8, all_reduce_perf_mpi -b 8 -e 16g -f 2 -g 1, driver 570.133.20',
    split: 'fit',
    note: 'preset h100-ndr (8 NDR NICs per node as stated); each row the faster of out-of-place and in-place (fasterOf). The fit sweep of NVLS_TREE_PIPELINE_CHUNKS_PER_LEVEL (held out before that constant existed; see the header)',
    preset: clusterPreset('h100-ndr'),
    rows: zip(
      pow2(8, 32),
      fasterOf(
        [
          68.52, 24.96, 24.93, 25.29, 25.68, 94.4, 32.35, 29.75, 28.19, 30.24, 32.12, 32.74, 34.1,
          33.84, 38.77, 48.67, 77.69, 71.93, 76.24, 94.38, 132.6, 185.4, 267.9, 466.1, 748.3,
          1282.8, 2357.6, 4484.9, 8729.8, 17262, 34381, 68652,
        ],
        [
          24.7, 24.93, 25.02, 25.21, 25.62, 25.9, 26.31, 26.65, 28.22, 29.72, 31.67, 32.24, 33.47,
          33.08, 38.12, 46.79, 70.33, 71.47, 76.62, 94.22, 131.4, 183.8, 267.7, 466.3, 749.2,
          1276.0, 2355.1, 4470.2, 8717.2, 17284, 34365, 68668,
        ],
      ),
    ),
  },
  {
    id: 'nccl-tests-309-h100-vm-4n',
    system:
      'VMware VMs: 4 nodes × 8 H100 SXM, 8 ConnectX-7 NDR per node passed through (NCCL_TOPO_FILE for the VM topology)',
    gpus: 32,
    nodes: 4,
    collective: 'all-reduce',
    source:
      'https://github.com/NVIDIA/nccl-tests/issues/309 (qoofyk, 2025-05-23, "run on 4 nodes")',
    date: '2025-05-23',
    version: 'NCCL 2.26.2+cuda12.8, all_reduce_perf_mpi -b 8 -e 16g -f 2 -g 1',
    split: 'held-out',
    note: 'preset h100-ndr; virtualised (VMware, NCCL_TOPO_FILE). Each row the faster of out-of-place and in-place (fasterOf); at 2 MiB both runs (191.3 and 132.2 µs) are slower than twice the bytes at 4 MiB (151.1), so that row is noisy either way',
    preset: clusterPreset('h100-ndr'),
    rows: zip(
      pow2(8, 32),
      fasterOf(
        [
          83.42, 34.82, 34.61, 34.77, 35.7, 107.5, 56.35, 39.79, 39.59, 42.18, 46.84, 48.51, 49.13,
          50.83, 55.87, 67.82, 72.88, 82.17, 191.3, 151.1, 217.3, 259.6, 376.0, 579.1, 990.7,
          1768.0, 3109.0, 5808.8, 11508, 22890, 45606, 90986,
        ],
        [
          34.75, 34.45, 35.55, 34.92, 35.04, 35.82, 36.72, 37.1, 40.03, 41.42, 45.55, 46.39, 46.79,
          47.6, 55.06, 66.86, 72.78, 82.21, 132.2, 154.0, 202.4, 258.3, 370.3, 574.4, 1013.1,
          1772.4, 3111.7, 5802.8, 11501, 22874, 45573, 91081,
        ],
      ),
    ),
  },
  {
    id: 'nccl-tests-309-h100-8n',
    system:
      'An 8-node H100 SXM cluster (64 GPUs), NICs not stated; its own 2-node run reaches 466 GB/s',
    gpus: 64,
    nodes: 8,
    collective: 'all-reduce',
    source:
      'https://github.com/NVIDIA/nccl-tests/issues/309 (gj-aion, 2025-06-18, "our 8 node cluster")',
    date: '2025-06-18',
    version: 'all_reduce_perf -b 1M -e 8G -f 2 -g 1 (NCCL version not shown)',
    split: 'held-out',
    note: 'preset h100-ndr stands for it (the NICs are not published; its 2-node busbw of 466 GB/s is what 8 NDR NICs give, as in the first sweep of the thread). Each row the faster of out-of-place and in-place (fasterOf). Its 4 MiB – 128 MiB rows are in NOT_MODELLED',
    preset: clusterPreset('h100-ndr'),
    rows: zip(
      pow2(M, 14),
      fasterOf(
        [
          117.0, 143.4, 203.8, 1272.4, 378.1, 509.6, 718.1, 1159.1, 1955.1, 3517.3, 7370.5, 13252,
          26438, 52733,
        ],
        [
          115.7, 143.3, 203.8, 321.4, 373.5, 508.2, 709.2, 1149.5, 2028.1, 3509.4, 7414.5, 13300,
          26340, 52754,
        ],
      ),
    ),
  },
  {
    id: 'nccl-tests-309-h100-4n-b',
    system: 'Four nodes of the same 8-node H100 cluster (32 GPUs), default NCCL settings',
    gpus: 32,
    nodes: 4,
    collective: 'all-reduce',
    source:
      'https://github.com/NVIDIA/nccl-tests/issues/309 (gj-aion, 2025-06-18, "around 325GB/s for AllReduce on 4 out of 8 nodes")',
    date: '2025-06-18',
    version: 'all_reduce_perf -b 1M -e 8G -f 2 -g 1, mpirun -np 32 -N 8 (NCCL version not shown)',
    split: 'held-out',
    note: 'preset h100-ndr, as for its 8-node sweep (IB 400G as the poster confirms, NIC count not stated); each row the faster of out-of-place and in-place (fasterOf). Added after the cross-node NVLS-tree term was fitted and predicted as it stood, no constant changed after',
    preset: clusterPreset('h100-ndr'),
    rows: zip(
      pow2(M, 14),
      fasterOf(
        [
          317.0, 226.8, 231.3, 239.0, 304.5, 413.7, 624.1, 1055.3, 2219.3, 3600.8, 6460.4, 12893,
          25605, 51285,
        ],
        [
          93.26, 156.4, 174.2, 256.7, 286.3, 455.5, 615.5, 1043.6, 2204.7, 3617.5, 6532.2, 12840,
          25537, 51350,
        ],
      ),
    ),
  },
  {
    id: 'nccl-tests-309-h100-2n-b',
    system: 'Two nodes of the same 8-node H100 cluster (16 GPUs)',
    gpus: 16,
    nodes: 2,
    collective: 'all-reduce',
    source:
      'https://github.com/NVIDIA/nccl-tests/issues/309 (gj-aion, 2025-06-18, "2 out of 8 nodes")',
    date: '2025-06-18',
    version: 'all_reduce_perf -b 1M -e 8G -f 2 -g 1',
    split: 'held-out',
    note: 'preset h100-ndr, as for its 8-node sweep; each row the faster of out-of-place and in-place (fasterOf)',
    preset: clusterPreset('h100-ndr'),
    rows: zip(
      pow2(M, 14),
      fasterOf(
        [
          93.25, 94.22, 110.9, 151.6, 201.6, 274.8, 477.2, 750.7, 1296.2, 2376.5, 4497.4, 8766.9,
          17290, 34508,
        ],
        [
          82.98, 93.52, 111.9, 150.5, 202.7, 269.7, 469.6, 751.2, 1290.4, 2371.3, 4503.5, 8777.6,
          17341, 34514,
        ],
      ),
    ),
  },
  {
    id: 'nccl-tests-290-h100-nvls',
    system: '1 node × 8 H100 80GB HBM3 (NVSwitch, NVLink SHARP), default algorithm',
    gpus: 8,
    nodes: 1,
    collective: 'all-reduce',
    source: 'https://github.com/NVIDIA/nccl-tests/issues/290 (shahizat, 2025-03-03, "Single node")',
    date: '2025-03-03',
    version: 'nccl-tests -b 128M -e 4G -f 2 -g 8',
    split: 'fit',
    note: 'the 4 GiB row sets NVLS_CHUNK_OVERHEAD_BYTES; the rest show the fit',
    preset: clusterPreset('h100-ndr'),
    rows: zip(pow2(128 * M, 6), [613.3, 1139.2, 2175.8, 4038.8, 8020.3, 15870]),
  },
  {
    id: 'nccl-1455-h100-nvls-by-gpus',
    system:
      '1 node × 2…8 H100 SXM, NCCL_ALGO=NVLS, 2–4 GiB (busbw as stated, one row per GPU count)',
    gpus: 8,
    nodes: 1,
    collective: 'all-reduce',
    source: 'https://github.com/NVIDIA/nccl/issues/1455 (shh2000, 2024-09-19)',
    date: '2024-09-19',
    version: 'nccl-tests all_reduce_perf -b 2G -e 4G -f 2 -g [gpus], NGC PyTorch container',
    split: 'fit',
    note: '"Busbw remains about 365-370 GBps when gpus from 2 to 4 … increase from 370 to 420, 440, 460, and 480 GBps when gpus increase from 4 to 5, 6, 7, and 8"; the row key is the GPU count, the size is 4 GiB',
    preset: clusterPreset('h100-ndr'),
    algorithm: 'nvls',
    busbwRows: true,
    rows: [
      [2, 367.5],
      [3, 367.5],
      [4, 367.5],
      [5, 420],
      [6, 440],
      [7, 460],
      [8, 480],
    ],
  },
  {
    id: 'nccl-1455-h100-ring-by-gpus',
    system:
      '1 node × 2…8 H100 SXM, NCCL_ALGO=RING, 2–4 GiB (busbw as stated, one row per GPU count)',
    gpus: 8,
    nodes: 1,
    collective: 'all-reduce',
    source: 'https://github.com/NVIDIA/nccl/issues/1455 (shh2000, 2024-09-19)',
    date: '2024-09-19',
    version: 'nccl-tests all_reduce_perf -b 2G -e 4G -f 2 -g [gpus]',
    split: 'fit',
    note: '"when using ALGO=RING, busbw is about 365-370 GBps when gpus from 2 to 8"; the row key is the GPU count',
    preset: clusterPreset('h100-ndr'),
    algorithm: 'ring',
    busbwRows: true,
    rows: [2, 3, 4, 5, 6, 7, 8].map((g) => [g, 367.5] as const),
  },
  {
    id: 'dstack-3961-p6-b200-efa-2n',
    system: 'AWS p6-b200 instances (8 B200 each) × 2 over EFA, small sizes only',
    gpus: 16,
    nodes: 2,
    collective: 'all-reduce',
    source:
      'https://github.com/dstackai/dstack/pull/3961 (r4victor, 2026-06-12, "NCCL tests on 2x p6-200"; rows 8–256 B as quoted)',
    date: '2026-06-12',
    version:
      'nccl-tests all_reduce_perf, EFA image of dstack (versions not shown); rank count not shown, 8 GPUs per instance assumed',
    split: 'not-modelled',
    note: 'EFA through aws-ofi-nccl on virtualised instances: 8 B takes 50.6 µs where NCCL’s bare-metal hop constants (b200-ndr, 2 × 8) give 25.2 µs, 2.0×. The VMware 4-node H100 run of nccl-tests#309 shows no such gap (34.8 µs measured, model within 2 %), so the extra latency is the EFA path, not virtualisation as such; one partial sweep is not enough to set a constant',
    rows: zip(pow2(8, 6), [50.58, 54.55, 54.59, 55.6, 56.27, 57.14]),
  },
  {
    id: 'gcp-a3-mega-tcpxo-2n',
    system: 'Google Cloud A3 Mega VMs: 2 × 8 H100 80GB HBM3, GPUDirect-TCPXO',
    gpus: 16,
    nodes: 2,
    collective: 'all-reduce',
    source:
      'https://github.com/lessizzmore/create-a3mega-ztan-fork/blob/02dd8f455c43ced1cf442ef29334bda97149264b/ztan-NCCL-test-result',
    date: '2024',
    version: 'nccl-tests -b 8 -e 8G -f 2 -g 1 (mpirun -np 16 -npernode 8)',
    split: 'not-modelled',
    note: 'GPUDirect-TCPXO moves GPU data over TCP through a NCCL net plugin: 123 µs for 8 B and a ~0.9 ms floor from 16 MiB on, unlike any RDMA fabric; the model has no constants for it and no cited per-VM NIC figure',
    rows: zip(
      pow2(8, 31),
      [
        135.8, 123.2, 123.3, 123.4, 123.0, 123.6, 126.6, 147.1, 125.8, 126.9, 131.6, 138.6, 155.2,
        159.4, 159.3, 167.1, 174.2, 203.2, 254.0, 364.6, 571.9, 977.6, 1059.9, 1261.6, 1652.2,
        2360.9, 3817.5, 6759.0, 12646, 24361, 47535,
      ],
    ),
  },
];

export const SWEEP_SIZES = { K, M, G } as const;
