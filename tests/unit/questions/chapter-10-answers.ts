/** Chapter 10's card answers and quoted figures, recomputed with the chapter's figure functions (card-numbers.test.ts reads them). */
import {
  fp8MaxFinite,
  gradientSyncRows,
  hpzSecondaryShardBytes,
  powerSgdErrorFeedbackBytes,
  powerSgdSequentialAllReduces,
  SLOW_CLUSTER,
  slowClusterMemory,
  WIRE,
  wireBytesPerValue,
  zeroPlusPlusVolume,
} from '../../../src/lib/figures/communicating-less';
import { hookWireBytes, powerSgdCompression } from '../../../src/lib/figures/mixed-precision';
import {
  clusterPreset,
  clusterShape,
  predictCollective,
} from '../../../playground/simulation/index.ts';

const nicBandwidth = clusterPreset('a100-100gbe').network.nicBandwidth.value;

const zpp = zeroPlusPlusVolume();
const fp8Bytes = wireBytesPerValue({ bits: 8, group: 0, scaleBytes: 0 });
const localSgdEvery = 8;
const [shard, block] = [8192, 512];
const [syncFp32, syncBf16, , syncLocal] = gradientSyncRows();
const mem = slowClusterMemory(7e9);
const psgdSeq = powerSgdSequentialAllReduces(7e9, 4096, 4);
const slowShape = clusterShape(SLOW_CLUSTER.preset, SLOW_CLUSTER.nodes, SLOW_CLUSTER.gpusPerNode);
const fp32Pick = predictCollective(slowShape, 'all-reduce', 28e9);
const fp32Ring = predictCollective(slowShape, 'all-reduce', 28e9, { algorithm: 'ring' });

export const CH10_ANSWERS: Record<string, number> = {
  'powersgd-compression#0': powerSgdCompression(4096, 4096, 4).ratio,
  'powersgd-compression#1': powerSgdCompression(4096, 4096, 1).compressed,
  'powersgd-error-feedback#0': powerSgdErrorFeedbackBytes(7e9),
  'bf16-compress-hook#0': hookWireBytes(7e9, 16, 'bf16'),
  'zero-plus-plus#0': zpp.reduction,
  'hpz-secondary-shard#0': hpzSecondaryShardBytes(70e9, 2, 8),
  'qgz-all-to-all#0': zpp.zeroPp.gradients / zpp.zero3.gradients,
  'blockwise-quantization#0': wireBytesPerValue(WIRE.mxfp8),
  'blockwise-quantization#1': wireBytesPerValue(WIRE.int8Qwz),
  'fp8-scaling-recipes#0': fp8MaxFinite('e4m3'),
  'fsdp-float8-all-gather#0': 7e9 * fp8Bytes,
  'gradient-sync-bandwidth-wall#0': syncBf16!.seconds,
  'compression-vs-local-sgd#0': hookWireBytes(7e9, 16, 'fp32') / localSgdEvery,
};

const gb = (b: number) => `${+(b / 1e9).toFixed(4)} GB`;
export const CH10_QUOTED: Record<string, string[]> = {
  'powersgd-compression': [
    `${powerSgdCompression(4096, 4096, 1).ratio}× at rank 1`,
    `**${powerSgdCompression(4096, 4096, 4).ratio}×** at rank 4`,
  ],
  'powersgd-error-feedback': [
    `**${gb(powerSgdErrorFeedbackBytes(7e9))}** for a 7B model`,
    `${gb(mem.zero1)} of weights, gradients and\nsharded Adam state plus the residual is **${gb(mem.zero1WithPowerSgd)}**`,
  ],
  'bf16-compress-hook': [
    `**${gb(hookWireBytes(7e9, 16, 'bf16'))}** per step instead of ${gb(hookWireBytes(7e9, 16, 'fp32'))}`,
  ],
  'zero-plus-plus': [`**${zpp.reduction}×** less across nodes`],
  'hpz-secondary-shard': [`**${gb(hpzSecondaryShardBytes(70e9, 2, 8))}** per GPU`],
  'qgz-all-to-all': [`**${zpp.zeroPp.gradients}** of fp16's volume`],
  'blockwise-quantization': [
    `**${+wireBytesPerValue(WIRE.int8Qwz).toFixed(5)}** bytes per value`,
    `**${wireBytesPerValue(WIRE.mxfp8)}** bytes per`,
    // 10-quantized-all-gather.ts on 4 ranks: 16 block scales instead of 1, sent to 3 peers; 8,192 int8 values + 1 scale.
    `${(shard / block - 1) * 4 * 3} more bytes out of about ${Math.round(((shard + 4) * 3) / 1000)} kB`,
  ],
  'fp8-scaling-recipes': [`E4M3 reaches **${fp8MaxFinite('e4m3')}**, E5M2 ${fp8MaxFinite('e5m2')}`],
  'fsdp-float8-all-gather': [`**${gb(7e9 * fp8Bytes)}** instead of ${gb(7e9 * 2)}`],
  'compression-vs-local-sgd': [
    `that is ${gb(hookWireBytes(7e9, 16, 'fp32'))} per average`,
    `**${gb(hookWireBytes(7e9, 16, 'fp32') / localSgdEvery)}** per step`,
  ],
  'gradient-sync-bandwidth-wall': [
    `about ${syncFp32!.seconds.toFixed(2)} s for the fp32 all-reduce`,
    `gives ${syncFp32!.seconds.toFixed(2)} s for the ${gb(syncFp32!.bytes)} fp32 all-reduce`,
    `**${syncFp32!.seconds.toFixed(2)} s** per all-reduce`,
    `about ${syncBf16!.seconds.toFixed(2)} s.`,
    `${gb(syncBf16!.bytes)}, **${syncBf16!.seconds.toFixed(2)} s**`,
    `the same ${syncFp32!.seconds.toFixed(2)} s once every eight steps, about ${syncLocal!.seconds.toFixed(1)} s per step`,
    `one ${(nicBandwidth / 1e9).toFixed(1)} GB/s\nNIC`,
    `**${gb(mem.ddp)}**\nper GPU, more than an A100's ${gb(mem.hbm)}`,
    `it holds\n**${gb(mem.zero1)}**`,
    `NCCL picks its ${fp32Pick.algorithm} here`,
    `(${fp32Ring.seconds.toFixed(2)} s)`,
    `about ${Math.round(psgdSeq.seconds * 1000)} ms in the cluster model`,
  ],
};
