/** Chapter 10: claims and the primary sources they were checked against on 2026-11-27. */
import type { PrimaryCitation } from './source-map';

const C10 = '10-communicating-less.mdx';
const TORCH = 'pytorch/pytorch';
const HOOKS = 'torch/distributed/algorithms/ddp_comm_hooks';

export const PRIMARY_SOURCES_10: PrimaryCitation[] = [
  {
    claim:
      'ZeroRedundancyOptimizer wraps an optimizer and shards its states across ranks (each keeps about 1/world_size of them), used with DistributedDataParallel, which still all-reduces every gradient; the running example holds 4 + 4 + 8/16 bytes a parameter (slowClusterMemory, ZeRO paper 16Ψ for plain DDP)',
    chapter: C10,
    anchor: 'when-bandwidth-is-the-wall',
    source: `${TORCH}, torch/distributed/optim/zero_redundancy_optimizer.py, ZeroRedundancyOptimizer docstring; Rajbhandari et al. 2020, arXiv 1910.02054, §3.1 (model states: weights, gradients, Adam m and v)`,
    url: `https://github.com/pytorch/pytorch/blob/main/torch/distributed/optim/zero_redundancy_optimizer.py`,
  },
  {
    claim:
      'PyTorch DDP all-reduces gradients in their own dtype (fp32 for fp32 parameters) unless a communication hook changes what the bucket sends',
    chapter: C10,
    anchor: 'when-bandwidth-is-the-wall',
    source: `${TORCH}, ${HOOKS}/default_hooks.py, allreduce_hook (the hook form of DDP's default) and _allreduce_fut: the bucket buffer in its own dtype, divided by the world size first "to avoid overflow, especially for FP16"`,
    url: `https://github.com/pytorch/pytorch/blob/main/${HOOKS}/default_hooks.py`,
  },
  {
    claim:
      'bf16_compress_hook / fp16_compress_hook: bucket.buffer().to(bf16 or fp16).div_(world_size), all_reduce, then copy_ back into the bucket (decompress in place)',
    chapter: C10,
    anchor: 'compressing-gradients-ddps-communication-hooks',
    source: `${TORCH}, ${HOOKS}/default_hooks.py, fp16_compress_hook and bf16_compress_hook (read in PyTorch 1.13 and main)`,
    url: `https://github.com/pytorch/pytorch/blob/main/${HOOKS}/default_hooks.py`,
  },
  {
    claim:
      "A 16-bit ring all-reduce rounds the running partial sum at each of its N − 1 hops, so its error grows with the world size; NCCL's tree adds sums of equal weight and is more stable (modelled hop by hop in 10-compress-gradients.ts)",
    chapter: C10,
    anchor: 'compressing-gradients-ddps-communication-hooks',
    source:
      'NVIDIA/nccl issue #1026, sjeaugey 2023-10-16: "The least stable algorithm is rings … adding one value with the sum of N with N increasing as we progress along the ring"',
    url: 'https://github.com/NVIDIA/nccl/issues/1026',
  },
  {
    claim:
      'powerSGD_hook: P = MQ, all-reduce P, _orthogonalize (Gram–Schmidt at rank ≤ 2 or in fp16/bf16, torch.linalg.qr otherwise, since PR #72043; orthogonalization_epsilon 0, 1e-8 in PyTorch 1.8), Q = MᵀP, all-reduce Q and div_(world_size), M ≈ PQᵀ; compressed only when (n + m)·r·min_compression_rate < n·m; defaults rank 1, start_powerSGD_iter 1_000 (PR #55272; 10 before PyTorch 1.9), min_compression_rate 2, error feedback and warm start on; error feedback keeps error_dict (a bucket-sized tensor) and clones the bucket (input_tensor_cp); warm start keeps p_memory_dict and q_memory_dict; the docstring suggests ranks 1, 2, 4, … and calls PowerSGD a biased compressor',
    chapter: C10,
    anchor: 'compressing-gradients-ddps-communication-hooks',
    source: `${TORCH}, ${HOOKS}/powerSGD_hook.py, PowerSGDState.__init__, _should_compress, _orthogonalize, powerSGD_hook (Vogels et al. 2019, arXiv 1905.13727)`,
    url: `https://github.com/pytorch/pytorch/blob/main/${HOOKS}/powerSGD_hook.py`,
  },
  {
    claim:
      "PowerSGD's time priced as the hook runs (powerSgdSequentialAllReduces): a 4096² fp32 gradient (64 MiB) exceeds DDP's 25 MiB bucket cap and is a bucket of its own; per bucket the hook all-reduces P, orthogonalizes, then all-reduces Q, so 2 × ⌈params / 4096²⌉ sequential all-reduces of n·r·4 bytes",
    chapter: C10,
    anchor: 'when-bandwidth-is-the-wall',
    source: `${TORCH}, torch/nn/parallel/distributed.py, DistributedDataParallel bucket_cap_mb (default 25); ${HOOKS}/powerSGD_hook.py, powerSGD_hook docstring steps 3.3–3.6 ("Allreduces Ps as a batch", then Qs)`,
    url: `https://github.com/pytorch/pytorch/blob/main/${HOOKS}/powerSGD_hook.py`,
  },
  {
    claim:
      'ZeRO++ config keys zero_quantized_weights (qwZ), zero_hpz_partition_size (hpZ: "number of ranks in zero parameters partitioning secondary group"), zero_quantized_gradients (qgZ)',
    chapter: C10,
    anchor: 'zero-quantized-and-hierarchical-zero-3',
    source:
      'microsoft/DeepSpeed, deepspeed/runtime/zero/config.py, DeepSpeedZeroConfig (fields and docstrings)',
    url: 'https://github.com/microsoft/DeepSpeed/blob/master/deepspeed/runtime/zero/config.py',
  },
  {
    claim:
      "qwZ's quantizer: CUDAQuantizer.quantize, target_group_size 8000, groups stepped until 8·groups divides numel, 8 bits, symmetric; it is handed one rank's shard (all_gather_coalesced: quantize(param_ds_tensor), or the concatenated shards of one fetch), computed for a 4096×4096 weight's shard on 16 GPUs by deepspeedQwzGroups (src/lib/figures/communicating-less.ts); the kernel's step is max/128 with values clamped to [−128, 127] (csrc/includes/quantization_utils.h, Params<Type::Symmetric>); __all_gather_params quantizes forward and backward fetches alike (partitioned_param_coordinator.py)",
    chapter: C10,
    anchor: 'zero-quantized-and-hierarchical-zero-3',
    source:
      'microsoft/DeepSpeed, deepspeed/runtime/zero/partition_parameters.py, CUDAQuantizer.quantize, all_gather_coalesced and Init.__init__ (zero_quantized_weights, zero_hpz_partition_size); csrc/includes/quantization_utils.h; deepspeed/runtime/zero/partitioned_param_coordinator.py, __all_gather_params',
    url: 'https://github.com/microsoft/DeepSpeed/blob/master/deepspeed/runtime/zero/partition_parameters.py',
  },
  {
    claim:
      'ZeRO++: block-quantized all-gather, hierarchical weight partitioning that trades memory for communication, all-to-all quantized (int4) gradient averaging replacing reduce-scatter; communication volume 4× lower (3M → 0.75M); up to 2.16× throughput at 384 GPUs',
    chapter: C10,
    anchor: 'zero-quantized-and-hierarchical-zero-3',
    source:
      'Wang et al. 2023, "ZeRO++: Extremely Efficient Collective Communication for Giant Model Training", abstract and §3 (qwZ, hpZ, qgZ)',
    url: 'https://arxiv.org/abs/2306.10209',
  },
  {
    claim:
      "qgZ's gradient path: int4 symmetric quantization, an all-to-all inside the node, a quantized reduction (dequantize, sum, requantize), an all-to-all across nodes, then dequantize and average; 1-D tensors and sizes not divisible by 2 × world size fall back to reduce-scatter",
    chapter: C10,
    anchor: 'zero-quantized-and-hierarchical-zero-3',
    source:
      'microsoft/DeepSpeed, deepspeed/runtime/comm/coalesced_collectives.py, all_to_all_quant_reduce (swizzle_quant, all_to_all_single on local_ and global_ groups, quantized_reduction, dequantize)',
    url: 'https://github.com/microsoft/DeepSpeed/blob/master/deepspeed/runtime/comm/coalesced_collectives.py',
  },
  {
    claim:
      'Transformer Engine recipes: DelayedScaling (amax_history_len 1024, amax_compute_algo "max", reduce_amax True over the amax_reduction_group given to autocast (fp8_group in the older fp8_autocast), fp8_format HYBRID), Float8CurrentScaling (per-tensor current scaling), MXFP8BlockScaling (32 consecutive values per E8M0 power-of-two scale, E4M3)',
    chapter: C10,
    anchor: 'fp8-in-the-data-parallel-loop',
    source:
      'NVIDIA/TransformerEngine, transformer_engine/common/recipe/__init__.py, DelayedScaling, Float8CurrentScaling and MXFP8BlockScaling docstrings and fields',
    url: 'https://github.com/NVIDIA/TransformerEngine/blob/main/transformer_engine/common/recipe/__init__.py',
  },
  {
    claim:
      "torchao tensorwise scaling: scale = finfo(float8).max / clamp(amax, min=EPS = 1e-12), computed in float64 and stored as float32 (amax_to_scale); the cast clamps to ±max before converting, because PyTorch's own float8 casts do not saturate (to_fp8_saturated, whose docstring names delayed scaling's stale amax as the case; docstring as read at pytorch/ao 00141f40, later torchao versions may reword it)",
    chapter: C10,
    anchor: 'fp8-in-the-data-parallel-loop',
    source:
      'pytorch/ao, torchao/float8/float8_utils.py, EPS, amax_to_scale, tensor_to_amax (reduce_amax all-reduces with MAX), to_fp8_saturated',
    url: 'https://github.com/pytorch/ao/blob/main/torchao/float8/float8_utils.py',
  },
  {
    claim:
      'MXFP8 scale: 32-value blocks, X = largest power of two ≤ amax divided by the largest power of two of the element format (2^8 for E4M3, 2^15 for E5M2), stored as E8M0 (bias 127); elements cast saturated; torchao\'s to_mx defaults to this FLOOR mode ("the minimally supported version" of OCP MX v1.0 §6.3)',
    chapter: C10,
    anchor: 'fp8-in-the-data-parallel-loop',
    source:
      'OCP Microscaling Formats (MX) Specification v1.0, §5.4.1 (E8M0) and §6.3 (conversion); pytorch/ao, torchao/prototype/mx_formats/mx_tensor.py, to_mx (ScaleCalculationMode.FLOOR: scale_e8m0_unbiased = extracted_pow2 − target_max_pow2) and constants.py (F8E4M3_MAX_POW2 = 8)',
    url: 'https://github.com/pytorch/ao/blob/main/torchao/prototype/mx_formats/mx_tensor.py',
  },
  {
    claim:
      'Transformer Engine\'s MXFP8 scale rounds up, 2^⌈log2(amax / 448)⌉, so a block never saturates (Blackwell: cvt.rp.satfinite.ue8m0x2.f32; otherwise "Round up exponent" in software), where the OCP FLOOR rule saturates blocks whose amax lies in [7/4, 2)·2^k; torchao\'s to_mx also offers RCEIL',
    chapter: C10,
    anchor: 'fp8-in-the-data-parallel-loop',
    source:
      'NVIDIA/TransformerEngine, transformer_engine/common/util/ptx_arch_spec.cuh (ptx.cuh in older releases), float_to_e8m0 (called with amax * max_norm_rcp); pytorch/ao, torchao/prototype/mx_formats/mx_tensor.py, _to_mx_rceil',
    url: 'https://github.com/NVIDIA/TransformerEngine/blob/main/transformer_engine/common/util/ptx_arch_spec.cuh',
  },
  {
    claim: 'E4M3 largest finite 448, E5M2 57344 (computed by fp8MaxFinite)',
    chapter: C10,
    anchor: 'fp8-in-the-data-parallel-loop',
    source: 'Micikevicius et al. 2022, "FP8 Formats for Deep Learning", Table 1',
    url: 'https://arxiv.org/abs/2209.05433',
  },
  {
    claim:
      'torchao float8: Float8LinearConfig.enable_fsdp_float8_all_gather wraps the weight in a tensor subclass with pre/post-all-gather methods for float8 all-gather under FSDP2; precompute_float8_dynamic_scale_for_fsdp runs after the optimizer step and computes the scales of all float8 weights with a single all-reduce; torchtitan recommends both for tensorwise scaling',
    chapter: C10,
    anchor: 'fp8-in-the-data-parallel-loop',
    source:
      'pytorch/ao, torchao/float8/config.py (Float8LinearConfig) and torchao/float8/fsdp_utils.py (precompute_float8_dynamic_scale_for_fsdp docstring); pytorch/torchtitan, torchtitan/config/job_config.py (Float8 options)',
    url: 'https://github.com/pytorch/ao/blob/main/torchao/float8/fsdp_utils.py',
  },
  {
    claim:
      'DiLoCo: 8 workers, H = 500 inner AdamW steps, outer Nesterov momentum on the averaged parameter change; PyTorch ships local SGD as post_localSGD_hook + PeriodicModelAverager',
    chapter: C10,
    anchor: 'local-sgd-and-diloco',
    source:
      'Douillard et al. 2023, "DiLoCo: Distributed Low-Communication Training of Language Models", abstract and §2 (Algorithm 1); pytorch/pytorch torch/distributed/algorithms/model_averaging/averagers.py, PeriodicModelAverager',
    url: 'https://arxiv.org/abs/2311.08105',
  },
  {
    claim:
      "DiLoCo's effectiveness stems primarily from Nesterov momentum on the pseudo-gradient, which helps even on one worker",
    chapter: C10,
    anchor: 'local-sgd-and-diloco',
    source: 'Kallusky et al. 2025, "SNOO: Step-K Nesterov Outer Optimizer", abstract',
    url: 'https://arxiv.org/abs/2510.15830',
  },
];
