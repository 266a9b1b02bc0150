/**
 * Chapter 10's arithmetic: what compressed gradients (DDP hooks, PowerSGD), ZeRO++ and FP8 put on the wire,
 * what they hold in memory to do it, and how long the cluster model says the resulting collectives take.
 * Every number the chapter prints comes from here or from its playgrounds.
 */
import {
  clusterPreset,
  clusterShape,
  predictCollective,
} from '../../../playground/simulation/index.ts';
import { powerSgdCompression } from './mixed-precision';
import { zeroPerGpuBytes } from './zero-memory';

/** A quantized format on the wire: `bits` per value, plus one scale of `scaleBytes` per `group` values. */
export interface WireFormat {
  bits: number;
  group: number;
  scaleBytes: number;
}

/** Bytes per value on the wire, the scales included. */
export function wireBytesPerValue(f: WireFormat): number {
  return f.bits / 8 + (f.group > 0 ? f.scaleBytes / f.group : 0);
}

/**
 * The group count DeepSpeed's CUDAQuantizer.quantize picks for qwZ when none is given, for the `numel` values it is
 * handed: one rank's shard (all_gather_coalesced quantizes param.ds_tensor, numel / world size), not the whole weight
 * (deepspeed/runtime/zero/partition_parameters.py): start at ⌈numel / 8000⌉, step up until 8·groups divides
 * numel, then double while numel / groups stays above 8000 and 16·groups still divides it.
 */
export function deepspeedQwzGroups(numel: number): { groups: number; groupSize: number } {
  const target = 8000;
  let groups = Math.ceil(numel / target);
  while (groups < numel && numel % (8 * groups) !== 0) groups++;
  while (numel % (8 * groups * 2) === 0 && numel / groups > target) groups *= 2;
  return { groups, groupSize: numel / groups };
}

/** The wire formats the chapter compares: qwZ's int8 with one fp32 scale per group (the group CUDAQuantizer picks for one rank's shard of a 4096×4096 weight on 16 GPUs, see the test), MXFP8 with one E8M0 byte per 32 values. */
export const WIRE = {
  fp32: { bits: 32, group: 0, scaleBytes: 0 },
  bf16: { bits: 16, group: 0, scaleBytes: 0 },
  int8Qwz: { bits: 8, group: 4096, scaleBytes: 4 },
  mxfp8: { bits: 8, group: 32, scaleBytes: 1 },
} as const satisfies Record<string, WireFormat>;

/** MXFP8's block (TransformerEngine recipe MXFP8BlockScaling: 32 consecutive values share one E8M0 scale). */
export const MXFP8_BLOCK = 32;

/**
 * ZeRO-3's cross-node traffic per step in units of the model's fp16 bytes, and ZeRO++'s (Wang et al. 2023,
 * "ZeRO++", abstract and §3: forward all-gather, backward all-gather, gradient reduce-scatter, 3M → 0.75M).
 * qwZ sends the forward all-gather in int8, hpZ keeps the backward all-gather inside the node, qgZ sends
 * gradients in int4. Scales are left out, as the paper's count does.
 */
export function zeroPlusPlusVolume(): {
  zero3: { forward: number; backward: number; gradients: number; total: number };
  zeroPp: { forward: number; backward: number; gradients: number; total: number };
  reduction: number;
} {
  const fp16 = 16;
  const zero3 = { forward: 1, backward: 1, gradients: 1, total: 3 };
  const forward = 8 / fp16,
    backward = 0,
    gradients = 4 / fp16;
  const zeroPp = { forward, backward, gradients, total: forward + backward + gradients };
  return { zero3, zeroPp, reduction: zero3.total / zeroPp.total };
}

/** PowerSGD on an n×m layer at rank r, and what error feedback holds: one fp32 copy of the gradient. */
export function powerSgdLayer(n: number, m: number, rank: number) {
  const c = powerSgdCompression(n, m, rank);
  return { ...c, errorFeedbackBytes: n * m * 4 };
}

/** Bytes of state PowerSGD keeps between steps for a model of `params` fp32 gradients (error feedback: one more copy). */
export function powerSgdErrorFeedbackBytes(params: number): number {
  return params * 4;
}

/** Seconds the cluster model gives one all-reduce of `bytes` (NCCL's choice of algorithm and protocol). */
export function allReduceSeconds(
  bytes: number,
  c: { preset: string; nodes: number; gpusPerNode: number },
): number {
  return predictCollective(clusterShape(c.preset, c.nodes, c.gpusPerNode), 'all-reduce', bytes)
    .seconds;
}

/** The cluster the chapter's tables use: two DGX A100 nodes joined by one 100 GbE NIC each (the bandwidth wall). */
export const SLOW_CLUSTER = { preset: 'a100-100gbe', nodes: 2, gpusPerNode: 8 } as const;

/**
 * PowerSGD's all-reduces priced one by one instead of as one message: each `layer`² fp32 gradient (64 MB at 4096)
 * exceeds DDP's 25 MB bucket cap, so it is a bucket of its own, and powerSGD_hook all-reduces its P (n·r) and then,
 * after orthogonalizing, its Q (m·r) in sequence (docstring steps 3.3 and 3.6). Small messages, so latency-bound.
 * Matmuls and orthogonalization are left out: a lower bound.
 */
export function powerSgdSequentialAllReduces(params = 7e9, layer = 4096, rank = 4) {
  const buckets = Math.ceil(params / (layer * layer));
  const bytes = layer * rank * 4;
  const each = allReduceSeconds(bytes, SLOW_CLUSTER);
  return { count: 2 * buckets, bytes, each, seconds: 2 * buckets * each };
}

/**
 * What the running example holds per GPU on SLOW_CLUSTER, fp32 with Adam (the ZeRO paper's 16 bytes a parameter,
 * chapter 5): plain DDP replicates everything; DDP with ZeroRedundancyOptimizer (ZeRO-1) shards only Adam's m and
 * v and still all-reduces every fp32 gradient; PowerSGD's error feedback adds one fp32 copy of the gradients.
 */
export function slowClusterMemory(params = 7e9) {
  const gpus = SLOW_CLUSTER.nodes * SLOW_CLUSTER.gpusPerNode;
  const common = { params, gpus, precision: 'fp32', optimizer: 'adam' } as const;
  const ddp = zeroPerGpuBytes({ ...common, strategy: 'ddp' });
  const zero1 = zeroPerGpuBytes({ ...common, strategy: 'zero1' });
  return {
    ddp,
    zero1,
    zero1WithPowerSgd: zero1 + powerSgdErrorFeedbackBytes(params),
    hbm: clusterPreset(SLOW_CLUSTER.preset).gpu.hbmBytes.value,
  };
}

/**
 * A 7B model's gradient all-reduce per step on SLOW_CLUSTER, four ways: fp32 (DDP's default), bf16
 * (bf16_compress_hook), PowerSGD at rank `rank` on `layer`-shaped matrices, and local SGD that all-reduces
 * fp32 parameters once every `innerSteps` steps (per step, amortized).
 */
export function gradientSyncRows(params = 7e9, layer = 4096, rank = 4, innerSteps = 8) {
  const psgd = powerSgdCompression(layer, layer, rank);
  const rows = [
    { name: 'fp32 all-reduce (DDP default)', bytes: params * 4 },
    { name: 'bf16_compress_hook', bytes: params * 2 },
    { name: `PowerSGD, rank ${rank}`, bytes: (params * 4) / psgd.ratio },
  ];
  const out = rows.map((r) => ({ ...r, seconds: allReduceSeconds(r.bytes, SLOW_CLUSTER) }));
  const local = {
    name: `local SGD / DiLoCo, H = ${innerSteps}`,
    bytes: (params * 4) / innerSteps,
    seconds: allReduceSeconds(params * 4, SLOW_CLUSTER) / innerSteps,
  };
  return [...out, local];
}

/**
 * Largest finite FP8 value (Micikevicius et al. 2022, "FP8 Formats for Deep Learning", Table 1): E5M2 follows
 * IEEE 754 (top exponent for inf/NaN), E4M3 keeps the top exponent for numbers and gives up only the all-ones
 * mantissa there to NaN, so its largest mantissa is 1.110₂.
 */
export function fp8MaxFinite(format: 'e4m3' | 'e5m2'): number {
  if (format === 'e5m2') return (1 + 3 / 4) * 2 ** (30 - 15);
  return (1 + 6 / 8) * 2 ** (15 - 7);
}

/** What the ZeRO++ paper's abstract reports (Wang et al. 2023, arXiv 2306.10209): up to 2.16× throughput at 384 GPUs. */
export const ZERO_PP_PAPER = { throughputGain: 2.16, gpus: 384 } as const;

/** The PyTorch release from which FSDP2's fully_shard is public in torch.distributed.fsdp (the twins' requirement). */
export const FSDP2_PUBLIC_FROM = '2.6';

/** The local SGD / DiLoCo playground's settings (10-local-sgd.ts; a test pins the program to them). */
export const LOCAL_SGD_RUN = {
  steps: 48,
  innerSteps: 8,
  outerLr: 0.7,
  outerMomentum: 0.9,
  tokensPerGpu: 16_384,
} as const;

/** hpZ's secondary shard per GPU: the weights divided by the GPUs of one node (zero_hpz_partition_size), not by the world size. */
export function hpzSecondaryShardBytes(
  params: number,
  bytesPerParam: number,
  gpusPerNode: number,
): number {
  return (params * bytesPerParam) / gpusPerNode;
}

/** The FP8 all-gather playground's settings (10-fp8-all-gather.ts; a test pins the program to them). */
export const FP8_RUN = { block: MXFP8_BLOCK, steps: 4, shard: 4096 } as const;
