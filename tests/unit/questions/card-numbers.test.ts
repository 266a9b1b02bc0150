/**
 * Every numeric answer and the figures quoted in the cards' prose, recomputed with the same figure
 * functions the chapters use (or, where no chapter has the figure, an independent computation).
 */
import { describe, expect, it } from 'vitest';
import { parseQuantity } from '../../../src/lib/questions/quantity-grader';
import { CH10_ANSWERS, CH10_QUOTED } from './chapter-10-answers';
import { questionSchema } from '../../../src/lib/content-schemas';
import { busBandwidthFactor } from '../../../src/lib/figures/all-reduce-time';
import {
  latencyBandwidthCrossover,
  ringBytesSentPerRank,
  rootBytesReceivedNaive,
} from '../../../src/lib/figures/collective-costs';
import {
  commBytesPerRank,
  commRatioToDdp,
  commVolumePsi,
} from '../../../src/lib/figures/comm-volume';
import {
  largestReplicatedModel,
  replicaBytesPerParam,
  shardSizes,
} from '../../../src/lib/figures/data-parallel-basics';
import {
  assignBuckets,
  bucketCapBytes,
  DDP_BROADCAST_BUCKET_BYTES,
  DDP_BUCKET_CAP_MB,
  DDP_FIRST_BUCKET_BYTES,
} from '../../../src/lib/figures/ddp-buckets';
import {
  computeSeconds,
  DEFAULT_MFU,
  estimateStep,
  H100_BF16_DENSE_FLOPS,
  H100_MEMORY_BYTES,
  shapeForWorld,
} from '../../../src/lib/figures/efficiency';
import { DDP_EXAMPLE } from '../../../src/lib/figures/ddp-time-example';
import { ringAllReduceSeconds } from '../../../src/lib/figures/all-reduce-time';
import { intraNodeBandwidth, nodeNetworkBandwidth } from '../../../playground/simulation/index.ts';
import { globalBatch } from '../../../src/lib/figures/einsum-example';
import {
  fmtBytes,
  fmtGB,
  fmtInt,
  fmtMiB,
  fmtPercent,
  fmtSeconds,
} from '../../../src/lib/figures/format-quantities';
import { linkPreset, NET_HOP_HISTORY } from '../../../src/lib/figures/link-presets';
import {
  defaultScalingInputs,
  scalingPoint,
  SCALING_DEFAULTS,
} from '../../../src/lib/figures/scaling-model';
import {
  SOURCE_70B_TABLE,
  SOURCE_ZERO3_COMM_MULTIPLE,
} from '../../../src/lib/figures/source-errata';
import {
  bytesPerParam,
  zeroPerGpuBreakdown,
  zeroPerGpuBytes,
} from '../../../src/lib/figures/zero-memory';
import { gpt2ModelStateBytes, GPT2_PARAMS } from '../../../src/lib/figures/zero-paper';
import {
  activationBytes,
  activationBytesPerLayer,
  activationBreakdown,
  GPT3_175B,
  recomputeOverhead,
} from '../../../src/lib/figures/activation-memory';
import {
  FORMATS,
  GRAD_SCALER_DEFAULTS,
  hookWireBytes,
  maxFinite,
  powerSgdCompression,
} from '../../../src/lib/figures/mixed-precision';
import {
  batchTokens,
  globalBatchSize,
  GOYAL_2017,
  linearScaledLr,
  sqrtScaledLr,
  stepSpeedup,
  stepsToTarget,
} from '../../../src/lib/figures/batch-scaling';
import {
  DILOCO,
  flatRingSeconds,
  hierarchicalSeconds,
  hsdpBytesPerRank,
  LLAMA3_INTERRUPTIONS,
  llama3FailureRates,
  localSgdCommReduction,
  reshardReads,
} from '../../../src/lib/figures/operating-at-scale';
import { commVolumePsi as psiOf } from '../../../src/lib/figures/comm-volume';
import { chapterIds, readCards } from './card-files';

const cards = readCards();
const ib = linkPreset('infiniband');
// Chapter 4's example: 7B on 64 GPUs as eight DGX H100 nodes, with NVLink SHARP and with rings only.
const ddpGpus = DDP_EXAMPLE.nodes * DDP_EXAMPLE.gpusPerNode;
const ddpOn = (preset: string, tokensPerGpu = DDP_EXAMPLE.tokens.large) =>
  estimateStep({
    params: DDP_EXAMPLE.params,
    tokensPerGpu,
    cluster: shapeForWorld(preset, ddpGpus),
  });
const ddp7b = ddpOn(DDP_EXAMPLE.preset);
const ddp7bRing = ddpOn(DDP_EXAMPLE.presetWithoutNvls);
const h100Shape = shapeForWorld(DDP_EXAMPLE.presetWithoutNvls, ddpGpus);
const flatRing7b = ringAllReduceSeconds(DDP_EXAMPLE.params * 2, ddpGpus, ib);
const backwardPerToken = computeSeconds(DDP_EXAMPLE.params, 1, 'backward');
const ms = (seconds: number) => fmtSeconds(seconds);
// Chapter 3's scaling plot at 16 ranks: the first world that crosses the network.
const scalingIn = defaultScalingInputs(0);
const scaling16 = scalingPoint(16, scalingIn);
const scaling16Overlapped = scalingPoint(16, defaultScalingInputs(1));
const scaling8 = scalingPoint(8, scalingIn);
const compute16 = scalingIn.forwardSeconds + scalingIn.backwardSeconds;
const stragglerOdds = 1 - 0.99 ** 64; // independent: P(at least one of 64 ranks slow) with p = 1 % each
const mem70 = (strategy: 'ddp' | 'zero1' | 'zero2' | 'zero3', accounting: 'paper' | 'chapter') =>
  zeroPerGpuBreakdown({ params: 70e9, gpus: 8, strategy, accounting });
const mem7 = (
  strategy: 'ddp' | 'zero1' | 'zero2' | 'zero3',
  layout: 'half-weights' | 'fp32-weights' = 'half-weights',
) => zeroPerGpuBytes({ params: 7e9, gpus: 8, strategy, layout });
const gb = (bytes: number, digits = 2) => fmtGB(bytes, digits);
const pcie = linkPreset('pcie');
const mem13 = (strategy: 'ddp' | 'zero1' | 'zero2' | 'zero3') =>
  zeroPerGpuBytes({ params: 13e9, gpus: 8, strategy });
const adam = bytesPerParam('bf16-mixed', 'adam');
// launching-with-torchrun: static node numbering, 2 nodes × 4 processes.
const torchrunJob = { nodes: 2, perNode: 4 };
const globalRank = (node: number, local: number) => node * torchrunJob.perNode + local;
// process-groups-and-new-group: enumerate the data-parallel groups of 32 ranks with tensor parallelism 4.
const dpGroups = (() => {
  const groups = new Map<number, number[]>();
  for (let r = 0; r < 32; r++) groups.set(r % 4, [...(groups.get(r % 4) ?? []), r]);
  return [...groups.values()];
})();
// async-collective-handles: a 30 ms all-reduce beside 20 ms of independent compute.
const overlap = { comm: 30e-3, work: 20e-3 };
// unequal-shards-weighting: 16 examples dealt to 3 ranks.
const unequal = shardSizes(16, 3);
// Chapters 7–9.
const gpt3 = { ...GPT3_175B, micro: 1 };
const cluster16x8 = { nodes: 16, gpusPerNode: 8, intra: linkPreset('nvlink'), inter: ib };
const hsdp7b = hsdpBytesPerRank(7e9, 2, 8, 16);
const goyalBatch = GOYAL_2017.gpus * GOYAL_2017.perGpu;
const bucketExample = assignBuckets(
  [2048, 32, 1024, 32, 256, 8].map((elements, i) => ({ name: `t${i}`, bytes: elements })),
  1100,
  1100,
);

/** Each numeric exercise's answer in base units (bytes, seconds, bytes/s, ratios as fractions, counts). */
const ANSWERS: Record<string, number> = {
  'gradient-bytes-per-step#0': 7e9 * bytesPerParam('bf16-mixed', 'adam').grads,
  'largest-replicated-model#0': largestReplicatedModel(H100_MEMORY_BYTES, 'bf16-mixed', 'adam'),
  'ring-all-reduce-traffic#0': ringBytesSentPerRank(8, 1e9 * 2),
  'ring-all-reduce-traffic#1': rootBytesReceivedNaive(8, 1e9 * 2),
  'bus-bandwidth#0': 100e9 * busBandwidthFactor('all-reduce', 8),
  'latency-bandwidth-crossover#0': latencyBandwidthCrossover(8, ib),
  'accumulation-with-data-parallelism#0': globalBatch(32, 8, 4),
  'sync-vs-async-sgd#0': stragglerOdds,
  'weak-vs-strong-scaling#0': scaling16.efficiency,
  'communication-overhead#0': ddp7bRing.allReduce,
  'ddp-overlap-break-even#0': ddp7b.breakEvenTokensPerGpu,
  'ddp-bucketing#0': bucketCapBytes(),
  'bytes-per-parameter#0': replicaBytesPerParam('bf16-mixed', 'adam'),
  'bytes-per-parameter#1': gpt2ModelStateBytes().modelStates,
  'zero-70b-memory#0': mem70('zero2', 'chapter').total,
  'zero-70b-memory#1': mem70('zero2', 'paper').total,
  'zero-communication#0': commRatioToDdp('zero3'),
  'choosing-a-strategy#0': mem7('zero1'),
  'choosing-a-strategy#1': mem7('zero1', 'fp32-weights'),
  'launching-with-torchrun#0': torchrunJob.nodes * torchrunJob.perNode,
  'launching-with-torchrun#1': globalRank(1, 2),
  'process-groups-and-new-group#0': dpGroups[0]!.length,
  'async-collective-handles#0': overlap.comm + overlap.work - Math.max(overlap.comm, overlap.work),
  'unequal-shards-weighting#0': unequal[0]! / 16,
  'unequal-shards-weighting#1': 1 / unequal.length,
  'cpu-offload#0': 7e9 * adam.optimizer,
  'cpu-offload#1': (7e9 * adam.grads) / pcie.bandwidth,
  'sizing-13b-on-8-gpus#0': mem13('ddp'),
  'sizing-13b-on-8-gpus#1': mem13('zero2'),
  'activation-memory-per-layer#0': activationBytesPerLayer(gpt3),
  'recompute-full-vs-selective#0': recomputeOverhead(gpt3, 'full'),
  'bf16-fp16-loss-scaling#0': maxFinite(FORMATS.fp16),
  'param-dtype-reduce-dtype-hooks#0': hookWireBytes(1e9, 8, 'bf16'),
  'global-batch-with-more-ranks#0': globalBatchSize(8, 64, 2),
  'global-batch-with-more-ranks#1': batchTokens(globalBatchSize(8, 64, 2), 2048),
  'linear-scaling-warmup#0': linearScaledLr(GOYAL_2017.refLr, GOYAL_2017.refBatch, goyalBatch),
  'adam-sqrt-scaling-lamb#0': sqrtScaledLr(3e-4, 256, 4096),
  'critical-batch-size#0': stepSpeedup(1, 2, 1).actual,
  // Numeric exercises added with the misconception hints (issue 33).
  'activations-not-sharded#0': zeroPerGpuBytes({ params: 7e9, gpus: 64, strategy: 'zero3' }),
  'batchnorm-under-data-parallelism#0': globalBatchSize(4, 8),
  'collectives-vocabulary#0': ringBytesSentPerRank(8, 8e9) / 2, // an all-gather is an all-reduce's second half
  'dp-vs-ddp#0': (4 - 1) * 1e9 * bytesPerParam('fp32', 'sgd').params,
  'zero-stages#0': mem7('zero1') - 7e9 * (adam.params + adam.grads),
  'what-is-data-parallelism#0': globalBatchSize(16, 8),
  'fsdp-units-prefetch#0': (7e9 * adam.params) / 32,
  'hierarchical-all-reduce#0': hierarchicalSeconds(8, cluster16x8).inter / ib.alpha, // latency-only message: network steps
  'hsdp-2d-mesh#0': hsdp7b.allReduce,
  'sharded-checkpoint-resharding#0': reshardReads(1001, 4, 2, 1).length,
  'elastic-restarts-failures#0': llama3FailureRates().jobMtbfHours * 3600,
  'local-sgd-diloco#0': localSgdCommReduction(DILOCO.innerSteps),
  ...CH10_ANSWERS,
};

/** Figures each card quotes (in its prompts or model answer), formatted from the computed values. */
const QUOTED: Record<string, string[]> = {
  'what-is-data-parallelism': [`${256 / 8} each`, gb(7e9 * 2, 0)],
  'gradient-bytes-per-step': [
    gb(7e9 * 2, 0),
    gb(ringBytesSentPerRank(1e6, 14e9), 0),
    `${(ringBytesSentPerRank(1e6, 14e9) / ib.bandwidth).toFixed(2)} s`,
    `${ib.bandwidth / 1e9} GB/s`,
  ],
  'largest-replicated-model': [
    `${replicaBytesPerParam('bf16-mixed', 'adam')} bytes`,
    `${largestReplicatedModel(H100_MEMORY_BYTES, 'bf16-mixed', 'adam') / 1e9} billion`,
    fmtGB(H100_MEMORY_BYTES, 0),
  ],
  'ring-all-reduce-traffic': [
    gb(ringBytesSentPerRank(8, 2e9)),
    gb(rootBytesReceivedNaive(8, 2e9)),
    `= ${gb(2e9, 0)}) on 8`,
  ],
  'bus-bandwidth': [`${+(100 * busBandwidthFactor('all-reduce', 8)).toFixed(1)} GB/s`],
  'latency-bandwidth-crossover': [
    fmtBytes(latencyBandwidthCrossover(8, ib), 2),
    `used ${NET_HOP_HISTORY.find((h) => h.versions === '2.14–2.17')!.value} µs`,
    `since ${NET_HOP_HISTORY.at(-1)!.versions.split('–')[0]}`,
    `about ${Math.round(latencyBandwidthCrossover(64, ib) / 1e6)} MB`,
    fmtSeconds(ib.alpha),
    `${ib.bandwidth / 1e9} GB/s`,
    `${fmtMiB(bucketCapBytes(), 0)} (${fmtBytes(bucketCapBytes())})`,
  ],
  'accumulation-with-data-parallelism': [`**${globalBatch(32, 8, 4)}**`],
  'sync-vs-async-sgd': [`**${Math.round(stragglerOdds * 100)} %**`],
  'weak-vs-strong-scaling': [
    gb(SCALING_DEFAULTS.params * SCALING_DEFAULTS.bytesPerGradient),
    `${SCALING_DEFAULTS.samplesPerRank} samples of ${fmtInt(SCALING_DEFAULTS.tokensPerSample)} tokens`,
    `${ms(compute16)} of`,
    `computes ${ms(compute16)} per step (${ms(scalingIn.backwardSeconds)} of it backward)`,
    `at ${ms(scaling16.commSeconds)}`,
    `(${(compute16 * 1e3).toFixed(1)} + ${(scaling16.commSeconds * 1e3).toFixed(1)})`,
    `(${ms(scaling8.commSeconds)} at ${scaling8.n})`,
    `takes ${ms(scaling16.commSeconds)}`,
    `**${fmtPercent(scaling16.efficiency, 1)}**`,
    `backward pass, ${ms(scalingIn.backwardSeconds)} here`,
    `${ms(scaling16.commSeconds - scalingIn.backwardSeconds)} stays exposed`,
    `**${fmtPercent(scaling16Overlapped.efficiency, 1)}**`,
  ],
  'communication-overhead': [
    gb(commBytesPerRank('ddp', 7e9, 2, 64), 1),
    `${(intraNodeBandwidth(h100Shape) / 1e9).toFixed(1)} GB/s per GPU`,
    `carry ${nodeNetworkBandwidth(h100Shape) / 1e9} GB/s together`,
    `2 × 63/64 × ${gb(14e9, 0)} / ${(intraNodeBandwidth(h100Shape) / 1e9).toFixed(1)} GB/s = ${ms((((2 * 63) / 64) * 14e9) / intraNodeBandwidth(h100Shape))}`,
    `latencies, ${ms(ddp7bRing.allReduce)} in the model`,
    `(${nodeNetworkBandwidth(h100Shape) / 1e9} GB/s), so`,
    `NVLink's ${(intraNodeBandwidth(h100Shape) / 1e9).toFixed(1)} GB/s:`,
    `boundary carries ${nodeNetworkBandwidth(h100Shape) / 1e9} GB/s`,
    `at the ${(intraNodeBandwidth(h100Shape) / 1e9).toFixed(1)} GB/s NCCL`,
    `**${ms(ddp7bRing.allReduce)}**`,
    `with rings and ${ms(ddp7b.allReduce)}`,
    `about ${flatRing7b.toFixed(2)} s, roughly eight times`,
    `one ${ib.bandwidth / 1e9} GB/s NIC per GPU`,
    `takes ${ms(ddp7b.backward)}`,
    `keeps ${fmtPercent(ddp7b.efficiency)} of`,
    fmtInt(DDP_EXAMPLE.tokens.large),
    `${DEFAULT_MFU * 100} %`,
    `${H100_BF16_DENSE_FLOPS / 1e12} TFLOP/s`,
  ],
  'ddp-overlap-break-even': [
    `in ${ms(ddp7b.allReduce)} (the book's`,
    `takes about ${(backwardPerToken * 1e6).toFixed(2)} µs`,
    `takes ${ms(ddp7b.allReduce)}, so`,
    `of ${H100_BF16_DENSE_FLOPS / 1e12} TFLOP/s`,
    `≈ ${(backwardPerToken * 1e6).toFixed(2)} µs`,
    `${ms(ddp7b.allReduce)} / ${(backwardPerToken * 1e6).toFixed(2)} µs ≈ ${fmtInt(ddp7b.breakEvenTokensPerGpu)} tokens`,
    `**${fmtInt(ddp7b.breakEvenTokensPerGpu)} tokens per GPU**`,
    `With ${DDP_EXAMPLE.tokens.small} tokens per GPU the job is network bound`,
    `about ${flatRing7b.toFixed(2)} s and a break-even near`,
    `${fmtInt(Math.round(flatRing7b / backwardPerToken / 100) * 100)} tokens, eight times`,
    `${ib.bandwidth / 1e9} GB/s NIC`,
  ],
  'ddp-bucketing': [
    fmtInt(bucketCapBytes()),
    `bucket_cap_mb=${DDP_BUCKET_CAP_MB}`,
    fmtMiB(DDP_FIRST_BUCKET_BYTES),
  ],
  'ddp-broadcast': [fmtMiB(DDP_BROADCAST_BUCKET_BYTES)],
  'code-bucket-gradients': [
    fmtInt(bucketExample[0]!.bytes),
    fmtInt(1100),
    `${bucketExample.length === 2 ? 'two' : bucketExample.length} calls`,
  ],
  'bytes-per-parameter': [
    `**${replicaBytesPerParam('bf16-mixed', 'adam')}**`,
    `$K = ${bytesPerParam('bf16-mixed', 'adam').optimizer}$`,
    gb(gpt2ModelStateBytes().weights, 0),
    gb(gpt2ModelStateBytes().modelStates, 0),
    `${GPT2_PARAMS / 1e9}B`,
  ],
  'zero-70b-memory': [
    ...(['ddp', 'zero1', 'zero2', 'zero3'] as const).map(
      (s) => `**${gb(mem70(s, 'paper').total)}**`,
    ),
    ...(['ddp', 'zero1', 'zero2', 'zero3'] as const).map((s) =>
      String(mem70(s, 'chapter').total / 1e9),
    ),
    gb(SOURCE_70B_TABLE.zero2),
    gb(mem70('zero2', 'chapter').grads),
    gb(mem70('zero2', 'chapter').optimizer),
  ],
  'zero-communication': [
    `| $${commVolumePsi('zero1', 'zero-redundancy-optimizer')}\\Psi$ |`,
    `| $${commVolumePsi('ddp')}\\Psi$ |`,
    `| $${commVolumePsi('zero1')}\\Psi$ |`,
    `| $${commVolumePsi('zero3')}\\Psi$ |`,
    `**${commRatioToDdp('zero3')}×**`,
    `${SOURCE_ZERO3_COMM_MULTIPLE}× DDP`,
  ],
  'fsdp-sharding-strategies': [
    `$${commVolumePsi('ddp')}\\Psi$`,
    `$${commVolumePsi('zero2')}\\Psi$`,
    `$${commVolumePsi('zero3')}\\Psi$`,
    `${commRatioToDdp('zero3')}× DDP`,
  ],
  'launching-with-torchrun': [
    `is rank ${globalRank(1, 2)}`,
    `${torchrunJob.nodes} × ${torchrunJob.perNode} job`,
  ],
  'process-groups-and-new-group': [
    `one of ${dpGroups.length} data-parallel groups of ${dpGroups[0]!.length}`,
    `ring has ${dpGroups[0]!.length} members, not 32`,
    `{1, 5, 9, …, ${dpGroups[1]!.at(-1)}}`,
  ],
  'async-collective-handles': [`costs ${Math.max(30, 20)} ms, not ${30 + 20}`],
  'unequal-shards-weighting': [
    `as ${unequal.join(', ')}`,
    `$${unequal[0]}/16 = ${unequal[0]! / 16}$`,
    `$${unequal[1]}/16 = ${unequal[1]! / 16}$`,
  ],
  'cpu-offload': [
    `${adam.optimizer} of the ${replicaBytesPerParam('bf16-mixed', 'adam')} bytes`,
    `= ${gb(7e9 * (adam.params + adam.grads), 0)} for`,
    `= ${gb(7e9 * adam.optimizer, 0)}`,
    `${gb(7e9 * adam.grads, 0)} for 7B`,
    `about ${(pcie.bandwidth / 1e9).toFixed(1)} GB/s`,
    `at least ${((7e9 * adam.grads) / pcie.bandwidth).toFixed(2)} s`,
    `${gb(7e9 * adam.grads, 0)} / ${(pcie.bandwidth / 1e9).toFixed(1)} GB/s ≈ ${((7e9 * adam.grads) / pcie.bandwidth).toFixed(2)} s`,
  ],
  'sizing-13b-on-8-gpus': [
    ...(['ddp', 'zero1', 'zero2', 'zero3'] as const).map((s) => `= ${gb(mem13(s))} |`),
    `${replicaBytesPerParam('bf16-mixed', 'adam')} bytes`,
    `with only ${gb(H100_MEMORY_BYTES - mem13('zero1'))} left`,
    `about ${Math.floor((H100_MEMORY_BYTES - mem13('zero2')) / 1e9)} GB of headroom`,
    `${gb(8 * H100_MEMORY_BYTES, 0)} in total`,
    `${gb(mem13('zero1') - 13e9 * (adam.params + adam.grads))} = ${gb(mem13('zero1'))}`,
  ],
  'activation-memory-per-layer': [
    `= 80`,
    `**${gb(activationBytesPerLayer(gpt3))}**`,
    `about ${gb(activationBytes(gpt3), 0)} over 96 layers`,
    `about ${gb(activationBreakdown(gpt3).attentionScores, 0)}`,
  ],
  'recompute-full-vs-selective': [
    `about ${Math.round(recomputeOverhead(gpt3, 'full') * 100)} % more compute`,
    `about ${Math.round(recomputeOverhead(gpt3, 'selective') * 100)} % more FLOPs for GPT-3`,
    `removing ${Math.round((1 - activationBytesPerLayer(gpt3, 'selective') / activationBytesPerLayer(gpt3)) * 100)} % of its activations`,
  ],
  'bf16-fp16-loss-scaling': [
    `**${maxFinite(FORMATS.fp16)}**`,
    `starts at $2^{16}$`,
    `after ${GRAD_SCALER_DEFAULTS.growthInterval} clean steps`,
  ],
  'param-dtype-reduce-dtype-hooks': [
    `**${gb(hookWireBytes(1e9, 8, 'bf16'), 1)}** per rank`,
    `instead of ${gb(hookWireBytes(1e9, 8, 'fp32'), 0)}`,
    `sends ${powerSgdCompression(4096, 4096, 1).compressed} numbers instead of ${+(powerSgdCompression(4096, 4096, 1).dense / 1e6).toFixed(1)} million`,
  ],
  'global-batch-with-more-ranks': [
    `$B$ = **${globalBatchSize(8, 64, 2)}**`,
    `about **${+(batchTokens(1024, 2048) / 1e6).toFixed(1)} million tokens**`,
  ],
  'linear-scaling-warmup': [
    `$B$ = ${goyalBatch}`,
    `$\\eta$ = **${linearScaledLr(0.1, 256, goyalBatch)}**`,
  ],
  'adam-sqrt-scaling-lamb': [
    `rate **${sqrtScaledLr(3e-4, 256, 4096).toExponential(1)}**`,
    `would say ${linearScaledLr(3e-4, 256, 4096).toExponential(1)}`,
  ],
  'critical-batch-size': [
    `a **${stepSpeedup(1, 2, 1).actual.toFixed(2)}×** speed-up`,
    `saves about ${Math.round((1 - stepsToTarget(16, 1, 1) / stepsToTarget(8, 1, 1)) * 100)} % of the steps`,
  ],
  'hierarchical-all-reduce': [
    `**${2 * (16 - 1)}** steps`,
    `instead of ${2 * (128 - 1)}`,
    `about ${flatRingSeconds(14e9, cluster16x8).toFixed(2)} s on`,
    `and ${hierarchicalSeconds(14e9, cluster16x8).total.toFixed(2)} s hierarchically`,
    `around ${ib.bandwidth / 1e9} GB/s`,
  ],
  'hsdp-2d-mesh': [
    `**${gb(hsdp7b.allReduce)}** per GPU`,
    `the shard is ${gb(14e9 / 8)}`,
    `about ${Math.round((psiOf('zero3') * (127 / 128) * 14e9) / 1e9)} GB per`,
    // one ring per NIC, each crossing a node boundary once: a NIC carries an eighth of a GPU's FULL_SHARD bytes
    `≈ ${gb((psiOf('zero3') * (127 / 128) * 14e9) / 8, 1)}`,
  ],
  'sharded-checkpoint-resharding': [`**${reshardReads(1001, 4, 2, 1).length}** files`],
  'elastic-restarts-failures': [
    `one every **${llama3FailureRates().jobMtbfHours.toFixed(2)} hours**`,
    `${LLAMA3_INTERRUPTIONS.unexpected} unexpected interruptions`,
  ],
  'local-sgd-diloco': [
    `communicating **${localSgdCommReduction(DILOCO.innerSteps)}×**`,
    `$H$ = ${DILOCO.innerSteps}`,
  ],
  'choosing-a-strategy': [
    ...(['ddp', 'zero1', 'zero2', 'zero3'] as const).map(
      (s) => `| ${gb(mem7(s))} | ${gb(mem7(s, 'fp32-weights'))} |`,
    ),
    `(${gb(mem7('zero1'))} + 30 GB ≈ ${gb(mem7('zero1') + 30e9, 0)})`,
    `(${gb(mem7('zero1', 'fp32-weights'))} + 30 GB ≈ ${gb(mem7('zero1', 'fp32-weights') + 30e9, 0)})`,
    `(${gb(mem7('zero2', 'fp32-weights'))} + 30 GB = ${gb(mem7('zero2', 'fp32-weights') + 30e9, 0)})`,
    `${commVolumePsi('zero1', 'zero-redundancy-optimizer')}\\Psi$ with \`ZeroRedundancyOptimizer\``,
  ],
  ...CH10_QUOTED,
};

describe('numbers in the cards', () => {
  const numeric = cards.flatMap((c) =>
    questionSchema
      .parse(c.data)
      .exercises.flatMap((ex, i) => (ex.kind === 'numeric' ? [{ key: `${c.id}#${i}`, ex }] : [])),
  );

  it('every numeric exercise has a recomputed answer', () => {
    expect(numeric.map((n) => n.key).sort()).toEqual(Object.keys(ANSWERS).sort());
  });

  for (const { key, ex } of numeric) {
    it(`${key}: the card's answer agrees with the figure functions`, () => {
      const card = parseQuantity(`${ex.value} ${ex.unit}`);
      const want = ANSWERS[key]!;
      // The card may round, but by far less than the tolerance it grants the reader.
      expect(Math.abs(card.base - want) / want).toBeLessThan(Math.min(0.002, ex.tolerance / 4));
    });
  }

  for (const [id, figures] of Object.entries(QUOTED)) {
    it(`${id}: quotes the recomputed figures`, () => {
      const card = cards.find((c) => c.id === id);
      expect(card, id).toBeDefined();
      for (const f of figures) expect(card!.text, `${id} should say "${f}"`).toContain(f);
    });
  }

  it('claims made in words hold for the computed figures', () => {
    // ring-all-reduce-traffic: "on 256 ranks it is still under 4 GB"
    expect(ringBytesSentPerRank(256, 2e9)).toBeLessThan(4e9);
    // ddp-overlap-break-even: 512 tokens are network bound, 1,024 hide the all-reduce; the flat ring is about 8× slower
    expect(ddpOn(DDP_EXAMPLE.preset, DDP_EXAMPLE.tokens.small).bound).toBe('network');
    expect(ddpOn(DDP_EXAMPLE.preset, 1024).bound).toBe('compute');
    expect(Math.round(flatRing7b / ddp7b.allReduce)).toBe(8);
    // communication-overhead: rings leave the node through all NICs, so NVLink is the ring's bottleneck; 4,096 tokens are compute bound
    expect(nodeNetworkBandwidth(h100Shape)).toBeGreaterThan(intraNodeBandwidth(h100Shape));
    expect(ddp7bRing.collective.algorithm).toBe('ring');
    expect(ddp7b.bound).toBe('compute');
    expect(ddp7bRing.breakEvenTokensPerGpu).toBeGreaterThan(900);
    expect(ddp7bRing.breakEvenTokensPerGpu).toBeLessThan(1100);
    // weak-vs-strong-scaling: 16 ranks are the first to cross the network; overlap cannot hide it all
    expect(scaling8.nodes).toBe(1);
    expect(scaling16.nodes).toBe(2);
    expect(scaling16.commSeconds).toBeGreaterThan(scalingIn.backwardSeconds);
    expect(scaling16Overlapped.efficiency).toBeLessThan(0.9);
    // latency-bandwidth-crossover: a full 25 MiB bucket is above the crossover on 8 ranks, below it on 64
    expect(bucketCapBytes()).toBeGreaterThan(latencyBandwidthCrossover(8, ib));
    expect(bucketCapBytes()).toBeLessThan(latencyBandwidthCrossover(64, ib));
    // zero-70b-memory and choosing-a-strategy: which configurations fit on an 80 GB GPU
    expect(mem70('zero3', 'paper').total).toBeGreaterThan(H100_MEMORY_BYTES);
    expect(mem7('zero1') + 30e9).toBeLessThanOrEqual(H100_MEMORY_BYTES);
    // choosing-a-strategy: under PyTorch's 4 + 4 + 8 layout ZeRO-1 with 30 GB of activations does not fit, ZeRO-2 does
    expect(mem7('zero1', 'fp32-weights') + 30e9).toBeGreaterThan(H100_MEMORY_BYTES);
    expect(mem7('zero2', 'fp32-weights') + 30e9).toBeLessThanOrEqual(H100_MEMORY_BYTES);
    // autocast's bf16 copy of every weight, saved for backward, is the only difference for DDP: 2 bytes a parameter
    expect(mem7('ddp', 'fp32-weights')).toBe(mem7('ddp') + 7e9 * 2);
    expect(mem7('zero3', 'fp32-weights')).toBe(mem7('zero3'));
    // zero-communication: ZeroRedundancyOptimizer is 3Ψ, the reduce-scatter implementation 2Ψ
    expect(commVolumePsi('zero1', 'zero-redundancy-optimizer')).toBe(3);
    expect(commVolumePsi('zero1', 'reduce-scatter')).toBe(2);
    // code-bucket-gradients: the reverse walk makes two buckets, the first of 8 + 256 + 32 + 1024 elements
    expect(bucketExample.map((b) => b.params)).toEqual([
      ['t5', 't4', 't3', 't2'],
      ['t1', 't0'],
    ]);
    // process-groups-and-new-group: the data-parallel group of rank 1 is {1, 5, 9, …, 29}
    expect(dpGroups.find((g) => g.includes(1))).toEqual(
      Array.from({ length: 8 }, (_, i) => 1 + 4 * i),
    );
    // sizing-13b-on-8-gpus: DDP does not fit, ZeRO-1 fits with little room, ZeRO-2 and ZeRO-3 fit
    expect(mem13('ddp')).toBeGreaterThan(H100_MEMORY_BYTES);
    expect(H100_MEMORY_BYTES - mem13('zero1')).toBeLessThan(10e9);
    expect(mem13('zero2')).toBeLessThan(H100_MEMORY_BYTES);
    expect(commRatioToDdp('zero2')).toBe(1);
    // unequal-shards-weighting: the weights add up to one, and rank 0 is under-weighted by the plain average
    expect(unequal.reduce((a, b) => a + b, 0)).toBe(16);
    expect(1 / unequal.length).toBeLessThan(unequal[0]! / 16);
    // bytes-per-parameter: the shortcut without the master copy underestimates by a quarter
    const short = bytesPerParam('bf16-mixed', 'adam', 'chapter');
    expect(
      1 -
        (short.params + short.grads + short.optimizer) / replicaBytesPerParam('bf16-mixed', 'adam'),
    ).toBe(0.25);
  });

  it('the 70B ZeRO-2 figure corrects the source, and ZeRO-3 is 1.5× DDP rather than 3×', () => {
    expect(mem70('zero2', 'chapter').total).not.toBe(SOURCE_70B_TABLE.zero2);
    expect(commRatioToDdp('zero3')).not.toBe(SOURCE_ZERO3_COMM_MULTIPLE);
  });
});

/** A time or a bandwidth typed with its unit: 75.2 ms, 9.6 µs, 0.55 s, 370.8 GB/s. */
const TIME_FIGURE =
  /(?<![\w.])\d[\d,]*(?:\.\d+)?(?:\s*(?:\\,|\\ )?\s*(?:µs|μs|\\mu\s*s|ms|GB\/s)|(?:\s+|\\,|\\ )s)(?![\w/])/g;
/**
 * Time figures a card may type without a figure function behind them, with the reason. Only the
 * givens of a made-up exercise and quotations of a source belong here; a result never does.
 */
const TIME_FIGURES_ALLOWED: Record<string, { figures: string[]; why: string }> = {
  'async-collective-handles': {
    figures: ['30 ms', '20 ms', '50 ms', '30 + 20 = 50 ms'],
    why: 'made-up givens of the exercise (a 30 ms all-reduce beside 20 ms of compute); the saving is in ANSWERS',
  },
  'bus-bandwidth': {
    figures: ['100 GB/s', '175 GB/s'],
    why: 'a made-up algbw of 100 GB/s; the 175 GB/s result is in ANSWERS and QUOTED',
  },
};

/** Character ranges of a text covered by any of the strings. */
function covered(text: string, strings: readonly string[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const f of strings) {
    for (let i = text.indexOf(f); i >= 0; i = text.indexOf(f, i + 1))
      ranges.push([i, i + f.length]);
  }
  return ranges;
}

describe('cards type no time figure of their own', () => {
  it('finds the figures it checks', () => {
    const hits = (t: string) => [...t.matchAll(TIME_FIGURE)].map((m) => m[0]);
    expect(
      hits('takes 75.2 ms, 9.6 µs per step, 0.55 s, 370.8 GB/s and $126\\times 9.6\\,\\mu s$'),
    ).toEqual(['75.2 ms', '9.6 µs', '0.55 s', '370.8 GB/s', '9.6\\,\\mu s']);
    expect(hits('ZeRO-3s 3 steps, 2s complement, 14 GB')).toEqual([]);
  });
  for (const card of cards) {
    it(`${card.id}: every time (µs, ms, s) and bandwidth (GB/s) is a computed figure or an allowed given`, () => {
      const allowed = TIME_FIGURES_ALLOWED[card.id]?.figures ?? [];
      const ranges = covered(card.text, [...(QUOTED[card.id] ?? []), ...allowed]);
      const loose = [...card.text.matchAll(TIME_FIGURE)]
        .filter((m) => !ranges.some(([a, b]) => m.index >= a && m.index + m[0].length <= b))
        .map((m) => m[0]);
      expect(loose, `${card.id} types ${loose.join(' | ')}`).toEqual([]);
    });
  }
});

describe('shape of every card', () => {
  const ids = new Set(cards.map((c) => c.id));
  const chapters = new Set(chapterIds());
  for (const c of cards) {
    it(`${c.id}: links, coverage points, options and a model answer of interview length`, () => {
      const card = questionSchema.parse(c.data);
      expect(chapters.has(c.data.chapter as string), `chapter ${String(c.data.chapter)}`).toBe(
        true,
      );
      const followUps = (c.data.followUps ?? []) as string[];
      expect(followUps.length, 'at least one follow-up').toBeGreaterThanOrEqual(1);
      for (const f of followUps) expect(ids.has(f) && f !== c.id, `follow-up ${f}`).toBe(true);
      expect(card.cover.mustMention.length).toBeGreaterThanOrEqual(3);
      expect(card.cover.mustMention.length).toBeLessThanOrEqual(5);
      for (const ex of card.exercises) {
        if (ex.kind !== 'single' && ex.kind !== 'multiple') continue;
        expect(ex.options.filter((o) => o.correct).length, ex.prompt).toBeGreaterThanOrEqual(1);
        for (const o of ex.options) expect(o.explanation.trim().length, o.text).toBeGreaterThan(10);
      }
      const words = c.body.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
      expect(words, 'model answer words').toBeGreaterThanOrEqual(120);
      expect(words, 'model answer words').toBeLessThanOrEqual(300);
    });
  }

  it('every card is reachable from another card', () => {
    const linked = new Set(cards.flatMap((c) => (c.data.followUps ?? []) as string[]));
    const orphans = cards
      .map((c) => c.id)
      .filter((id) => !linked.has(id) && id !== 'what-is-data-parallelism');
    expect(orphans).toEqual([]);
  });
});
