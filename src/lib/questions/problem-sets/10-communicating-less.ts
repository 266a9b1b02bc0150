import {
  deepspeedQwzGroups,
  fp8MaxFinite,
  gradientSyncRows,
  hpzSecondaryShardBytes,
  MXFP8_BLOCK,
  powerSgdErrorFeedbackBytes,
  powerSgdLayer,
  SLOW_CLUSTER,
  wireBytesPerValue,
  WIRE,
  zeroPlusPlusVolume,
} from '../../figures/communicating-less';
import { sig, type ProblemSet } from './types';

const params = 7e9;
const innerSteps = 8;
// Rows: fp32 (DDP's default), bf16_compress_hook, PowerSGD, local SGD.
const rows = gradientSyncRows(params, 4096, 4, innerSteps);
const [fp32, bf16, local] = [rows[0]!, rows[1]!, rows[3]!];
const gpus = SLOW_CLUSTER.nodes * SLOW_CLUSTER.gpusPerNode;

// An MLP up-projection of a d = 4096 model (4096 × 16384) at PowerSGD rank 2.
const [n, m, r] = [4096, 16384, 2];
const layer = powerSgdLayer(n, m, r);

const qwz = deepspeedQwzGroups(4096 * 11008);
const qwzBytes = wireBytesPerValue({ ...WIRE.int8Qwz, group: qwz.groupSize });
const vol = zeroPlusPlusVolume();
const hpz = hpzSecondaryShardBytes(13e9, 2, 8);

export const problemSet: ProblemSet = {
  chapter: '10-communicating-less',
  problems: [
    {
      title: 'The bandwidth wall, and three ways past it',
      setup: `A 7B model trains under DDP on ${SLOW_CLUSTER.nodes} nodes × ${SLOW_CLUSTER.gpusPerNode} A100s joined by one 100 GbE NIC each (the cluster model's ${SLOW_CLUSTER.preset} preset). Times are the simulated cluster's, not this machine's.`,
      steps: [
        {
          prompt: "How many bytes of gradients does DDP's default all-reduce carry per step?",
          value: fp32.bytes / 1e9,
          unit: 'GB',
          tolerance: 0.01,
          solution: `DDP keeps gradients in the parameters' dtype, fp32: 7·10⁹ × 4 B = ${sig(fp32.bytes / 1e9)} GB.`,
          mistakes: [
            {
              value: params / 1e9,
              why: 'That counts parameters, not bytes: each fp32 gradient is 4 bytes.',
            },
            {
              value: (params * 2) / 1e9,
              why: "That is bf16's size; DDP's default hook all-reduces the fp32 gradients as they are.",
            },
          ],
        },
        {
          prompt: 'How long does the cluster model say that all-reduce takes?',
          value: fp32.seconds,
          unit: 's',
          tolerance: 0.05,
          solution: `The ring is bound by the 100 GbE links between the nodes: ${sig(fp32.seconds)} s (simulated) for ${sig(fp32.bytes / 1e9)} GB, longer than a typical step's compute.`,
        },
        {
          prompt: 'With bf16_compress_hook registered, how long does it take?',
          value: bf16.seconds,
          unit: 's',
          tolerance: 0.05,
          solution: `Half the bytes (${sig(bf16.bytes / 1e9)} GB) and the time is bandwidth-bound, so about half the time: ${sig(bf16.seconds)} s.`,
          mistakes: [
            {
              value: fp32.seconds / 4,
              why: 'bf16 is half of fp32 (2 bytes against 4), not a quarter.',
            },
          ],
        },
        {
          prompt: `Local SGD averages the fp32 parameters once every H = ${innerSteps} steps instead. Amortized per step, how long does communication take?`,
          value: local.seconds,
          unit: 's',
          tolerance: 0.05,
          solution: `One ${sig(fp32.bytes / 1e9)} GB all-reduce (${sig(fp32.seconds)} s) every ${innerSteps} steps: ${sig(fp32.seconds)} / ${innerSteps} = ${sig(local.seconds)} s per step.`,
          mistakes: [
            {
              value: bf16.seconds / innerSteps,
              why: 'Local SGD averages the fp32 parameters, 4 bytes each, not bf16.',
            },
          ],
        },
      ],
    },
    {
      title: 'PowerSGD on one layer',
      setup: `A ${n} × ${m} weight (an MLP up-projection of a d = ${n} model) has its fp32 gradient sent by PowerSGD at rank ${r}: P = MQ (${n} × ${r}) is all-reduced, orthogonalized, then Q = MᵀP (${m} × ${r}) is all-reduced.`,
      steps: [
        {
          prompt: 'How many numbers does PowerSGD all-reduce for this layer per step?',
          value: layer.compressed,
          unit: '',
          tolerance: 0.001,
          solution: `(n + m)·r = (${n} + ${m}) × ${r} = ${layer.compressed}: P and Q, in two all-reduces.`,
          mistakes: [
            { value: n * r, why: 'That is P alone; Q (m × r) is all-reduced too.' },
            { value: m * r, why: 'That is Q alone; P (n × r) is all-reduced first.' },
          ],
        },
        {
          prompt:
            'By what factor does that cut what the layer all-reduces, against the dense gradient?',
          value: layer.ratio,
          unit: 'x',
          tolerance: 0.01,
          solution: `n·m / ((n + m)·r) = ${layer.dense} / ${layer.compressed} = ${sig(layer.ratio, 5)}×.`,
          mistakes: [
            {
              value: layer.dense / (n * r),
              why: 'That divides by P only; the factor counts both P and Q.',
            },
          ],
        },
        {
          prompt: 'How much memory does error feedback hold for this layer on each rank?',
          value: layer.errorFeedbackBytes / 2 ** 20,
          unit: 'MiB',
          tolerance: 0.01,
          solution: `One fp32 residual per gradient element: ${n} × ${m} × 4 B = ${sig(layer.errorFeedbackBytes / 2 ** 20)} MiB, on every rank.`,
          mistakes: [
            {
              value: (layer.compressed * 4) / 2 ** 20,
              why: 'The residual is what compression dropped, the size of the whole gradient, not of P and Q.',
            },
          ],
        },
        {
          prompt:
            'For the whole 7B model with fp32 gradients, how much memory does error feedback hold per GPU?',
          value: powerSgdErrorFeedbackBytes(params) / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `7·10⁹ × 4 B = ${sig(powerSgdErrorFeedbackBytes(params) / 1e9)} GB: the bytes saved on the wire are paid for in memory.`,
          mistakes: [
            {
              value: powerSgdErrorFeedbackBytes(params) / 1e9 / gpus,
              why: 'The residual is not sharded: every rank keeps its own for the whole model.',
            },
          ],
        },
      ],
    },
    {
      title: 'ZeRO++ on the wire',
      setup: `ZeRO-3 sends three model sizes (fp16) across nodes per step: the forward all-gather, the backward all-gather and the gradient reduce-scatter. ZeRO++ changes each (qwZ, hpZ, qgZ).`,
      steps: [
        {
          prompt: `qwZ quantizes a 4096 × 11008 weight to int8; DeepSpeed picks ${qwz.groups} groups of ${qwz.groupSize} values, each with one fp32 scale. How many bytes per value go on the wire?`,
          value: qwzBytes,
          unit: 'B',
          tolerance: 0.0001,
          solution: `1 B + 4 B / ${qwz.groupSize} = ${sig(qwzBytes, 6)} B: the scales add under 0.1 %.`,
          mistakes: [
            {
              value: 1 + 4 / qwz.groups,
              why: `The scale is shared by the ${qwz.groupSize} values of one group: divide its 4 bytes by the group size, not by the number of groups.`,
            },
          ],
        },
        {
          prompt: 'How many model sizes (fp16) does ZeRO++ send across nodes per step?',
          value: vol.zeroPp.total,
          unit: '',
          tolerance: 0.01,
          solution: `Forward all-gather in int8: ${vol.zeroPp.forward}; backward all-gather inside the node (hpZ): ${vol.zeroPp.backward}; gradients in int4: ${vol.zeroPp.gradients}. Total ${vol.zeroPp.total}.`,
          mistakes: [
            {
              value: vol.zeroPp.forward + 1 + vol.zeroPp.gradients,
              why: 'hpZ keeps the backward all-gather inside the node: it sends nothing across nodes.',
            },
            {
              value: vol.zeroPp.forward * 2 + vol.zeroPp.gradients,
              why: 'hpZ does not quantize the backward all-gather; it keeps it inside the node, so it costs 0 across nodes.',
            },
          ],
        },
        {
          prompt: 'By what factor does that cut the cross-node volume against ZeRO-3?',
          value: vol.reduction,
          unit: 'x',
          tolerance: 0.01,
          solution: `${vol.zero3.total} / ${vol.zeroPp.total} = ${vol.reduction}×, the paper's "4× less communication".`,
        },
        {
          prompt:
            "A 13B model in bf16 trains with hpZ on 8-GPU nodes, 512 GPUs in all. How large is each GPU's secondary weight shard?",
          value: hpz / 1e9,
          unit: 'GB',
          tolerance: 0.02,
          solution: `13·10⁹ × 2 B / 8 GPUs per node = ${sig(hpz / 1e9)} GB, whatever the world size: that is hpZ's memory price.`,
          mistakes: [
            {
              value: (13e9 * 2) / 512 / 1e9,
              why: 'That is the primary shard, divided by the world size; the secondary one is divided only by the GPUs of a node.',
            },
          ],
        },
      ],
    },
    {
      title: 'FP8 on the wire',
      setup: `FP8 comes in two formats (Micikevicius et al. 2022): E4M3 (4 exponent bits, 3 mantissa bits) and E5M2. MXFP8 gives each block of ${MXFP8_BLOCK} values one E8M0 scale byte.`,
      steps: [
        {
          prompt: 'What is the largest finite E4M3 value?',
          value: fp8MaxFinite('e4m3'),
          unit: '',
          tolerance: 0.001,
          solution: `E4M3 keeps its top exponent for numbers and gives up only the all-ones mantissa there (not a number), so its largest is 1.110₂ × 2⁸ = ${fp8MaxFinite('e4m3')}.`,
          mistakes: [
            {
              value: 240,
              why: 'That follows IEEE 754 and reserves the top exponent for inf/NaN; E4M3 does not.',
            },
            {
              value: 480,
              why: 'The all-ones mantissa 1.111₂ at the top exponent is NaN; the largest is 1.110₂.',
            },
          ],
        },
        {
          prompt: 'And the largest finite E5M2 value?',
          value: fp8MaxFinite('e5m2'),
          unit: '',
          tolerance: 0.001,
          solution: `E5M2 follows IEEE 754: top exponent 30 − 15 = 15, largest mantissa 1.11₂: 1.75 × 2¹⁵ = ${fp8MaxFinite('e5m2')}.`,
          mistakes: [
            {
              value: 1.75 * 2 ** 16,
              why: 'E5M2 reserves its top exponent (31) for inf and NaN, like IEEE 754: the largest finite exponent is 30 − 15 = 15.',
            },
          ],
        },
        {
          prompt: 'How many bytes per value does MXFP8 put on the wire, the scales included?',
          value: wireBytesPerValue(WIRE.mxfp8),
          unit: 'B',
          tolerance: 0.001,
          solution: `1 B + 1 B / ${MXFP8_BLOCK} = ${wireBytesPerValue(WIRE.mxfp8)} B, about 3 % over plain FP8 and half of bf16.`,
          mistakes: [
            {
              value: 1 + 4 / MXFP8_BLOCK,
              why: 'An E8M0 scale is one byte (an exponent only), not an fp32.',
            },
          ],
        },
      ],
    },
  ],
};
