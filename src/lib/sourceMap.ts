/**
 * Where the book covers each topic of the five source documents (content/…/seeds 000–004),
 * as chapter file + heading anchor. A unit test checks that every anchor exists.
 */
import { commRatioToDdp } from './figures/commVolume';
import { fmtGB } from './figures/formatQuantities';
import { SOURCE_70B_TABLE, SOURCE_ZERO3_COMM_MULTIPLE } from './figures/sourceErrata';
import { zeroPerGpuBytes } from './figures/zeroMemory';

const src70 = SOURCE_70B_TABLE;
const zero2Chapter = zeroPerGpuBytes({ params: src70.params, gpus: src70.gpus, strategy: 'zero2', accounting: 'chapter' });

export interface SourceTopic {
  topic: string;
  /** Chapter file in content/chapters/. */
  chapter: string;
  /** Heading id inside that chapter (github-slugger of the heading text). */
  anchor: string;
  /** Set when the book corrects the source on this topic. */
  correction?: string;
}

export interface SourceDocument {
  file: string;
  title: string;
  topics: SourceTopic[];
}

const C1 = '01-what-is-data-parallelism.mdx', C2 = '02-collectives.mdx', C3 = '03-data-parallel-from-scratch.mdx';
const C4 = '04-inside-ddp.mdx', C5 = '05-memory-and-zero.mdx', C6 = '06-fsdp-and-choosing.mdx';

export const SOURCE_MAP: SourceDocument[] = [
  {
    file: '000_a2dffad86171e097.txt',
    title: 'README of a torchrun demo of data parallelism',
    topics: [
      { topic: 'Model replication, data sharding, gradient synchronization', chapter: C1, anchor: 'the-recipe' },
      { topic: 'Demo: data-parallel inference, independent requests', chapter: C1, anchor: 'inference-needs-no-communication-at-all' },
      { topic: 'Demo: data-parallel inference with broadcast, scatter and gather', chapter: C2, anchor: 'one-to-many-many-to-one' },
      { topic: 'Demo: data-parallel training with gradient synchronization', chapter: C3, anchor: 'manual-ddp-a-wrapper-that-overrides-only-backward' },
      { topic: 'Demo: a larger model under data parallelism (the book uses an MLP; the mechanics are the same for a transformer)', chapter: C4, anchor: 'try-it-the-three-exercises' },
      { topic: 'Demo: throughput benefits of more ranks', chapter: C3, anchor: 'throughput-and-the-global-batch-size' },
      { topic: 'Launching with torchrun --nproc_per_node', chapter: C2, anchor: 'launching-torchrun-and-slurm' },
      { topic: 'DP versus tensor and pipeline parallelism', chapter: C1, anchor: 'data-tensor-and-pipeline-parallelism' },
      { topic: 'When to use data parallelism', chapter: C1, anchor: 'when-data-parallelism-is-the-right-tool' },
      { topic: 'Limitations: full replica memory, gradient synchronization overhead', chapter: C5, anchor: 'where-the-bytes-go' },
    ],
  },
  {
    file: '001_1484db5f96fa40c0.txt',
    title: 'Interview question card, "Data Parallelism"',
    topics: [
      { topic: 'The algorithm: replicate, split, compute, all-reduce, update', chapter: C1, anchor: 'the-recipe' },
      { topic: 'Worked example: global batch over 8 GPUs, micro-batches', chapter: C3, anchor: 'gradient-accumulation' },
      { topic: 'Naive versus ring all-reduce communication', chapter: C2, anchor: 'the-αβ-cost-model', correction: 'Per-rank ring traffic is 2(n−1)/n·D, nearly constant in n; the "O(n²) vs O(n)" contrast is loose. What grows is the latency term.' },
      { topic: 'Ring all-reduce, step by step', chapter: C2, anchor: 'the-ring-all-reduce-step-by-step' },
      { topic: 'DDP: one process per GPU, NCCL all-reduce', chapter: C3, anchor: 'nndataparallel-versus-distributeddataparallel' },
      { topic: 'FSDP / ZeRO: sharding parameters', chapter: C6, anchor: 'sharding-strategies-are-zero-stages' },
      { topic: 'Synchronous versus asynchronous updates, stragglers', chapter: C3, anchor: 'synchronous-and-asynchronous-sgd' },
      { topic: 'Bandwidth bottleneck: gradient size equals model size', chapter: C4, anchor: 'what-ddp-costs-and-when-it-scales-linearly' },
      { topic: 'When model parallelism is needed instead', chapter: C6, anchor: 'where-data-parallelism-stops' },
      { topic: 'Follow-up: gradient accumulation with data parallelism', chapter: C4, anchor: 'no_sync-and-gradient-accumulation' },
      { topic: 'Follow-up: DP versus DDP', chapter: C3, anchor: 'nndataparallel-versus-distributeddataparallel' },
    ],
  },
  {
    file: '002_ad678634d09cb1f6.txt',
    title: 'Book section on data parallelism',
    topics: [
      { topic: 'The bd,df->bf einsum with b = 5120, d = 2048, f = 1024 on 2 devices', chapter: C3, anchor: 'a-worked-example-bddf-bf' },
      { topic: 'Memory redundancy: the largest model is what fits on one device', chapter: C5, anchor: 'where-the-bytes-go' },
      { topic: 'Feature / impact table (implementation, throughput, memory, communication, batch size)', chapter: C3, anchor: 'throughput-and-the-global-batch-size' },
      { topic: 'DataParallel(SingleDevice) overriding only backward', chapter: C3, anchor: 'manual-ddp-a-wrapper-that-overrides-only-backward' },
      { topic: 'Gradient bucketing and overlap', chapter: C4, anchor: 'buckets' },
      { topic: 'A live playground under the text', chapter: C3, anchor: 'manual-ddp-a-wrapper-that-overrides-only-backward' },
    ],
  },
  {
    file: '003_2a93f7b684c94e72.txt',
    title: 'Lecture notes on data parallelism',
    topics: [
      { topic: 'The banquet analogy', chapter: C1, anchor: 'the-banquet-analogy-and-where-it-breaks', correction: 'Scaling is easy for inference only; in training the per-step all-reduce and stragglers bound the speed-up.' },
      { topic: 'Broadcast, scatter, gather', chapter: C2, anchor: 'the-eight-collectives' },
      { topic: 'The BatchNorm exception', chapter: C3, anchor: 'batchnorm-and-syncbatchnorm' },
      { topic: 'Inference with data parallelism', chapter: C3, anchor: 'inference-under-data-parallelism' },
      { topic: 'Training: forward, backward, all-reduce, update', chapter: C3, anchor: 'why-averaging-gradients-is-exact' },
      { topic: 'torch.distributed, c10d, NCCL / Gloo / MPI, RPC', chapter: C2, anchor: 'torchdistributed' },
      { topic: 'init_process_group, new_group, all_reduce with async_op handles', chapter: C2, anchor: 'torchdistributed' },
      { topic: 'Sync versus async collectives', chapter: C2, anchor: 'groups-asynchronous-handles-and-the-barrier' },
      { topic: 'DistributedDataParallel', chapter: C4, anchor: 'buckets' },
      { topic: 'Launching: MASTER_ADDR, MASTER_PORT, WORLD_SIZE, SLURM', chapter: C2, anchor: 'launching-torchrun-and-slurm', correction: 'The source script never sets RANK; each task must take it from SLURM_PROCID.' },
      { topic: 'all_reduce example: arange(2) + 1 + 2·rank', chapter: C2, anchor: 'everyone-to-everyone' },
    ],
  },
  {
    file: '004_9025589a4db2dcf3.txt',
    title: '"Chapter 5: Data Parallelism Deep Dive"',
    topics: [
      { topic: 'What data parallelism is: replicate, split, compute, synchronize, update', chapter: C1, anchor: 'the-recipe' },
      { topic: 'Gradient averaging math, equal and unequal splits', chapter: C3, anchor: 'why-averaging-gradients-is-exact', correction: 'all_reduce(SUM)/world_size equals the weighted formula only for equal shards; weight by |B_r|/|B| otherwise.' },
      { topic: 'Unequal splits, live', chapter: C3, anchor: 'unequal-shards' },
      { topic: 'DDP internals: buckets, overlap, broadcast', chapter: C4, anchor: 'overlapping-communication-with-the-backward-pass' },
      { topic: 'The memory problem and the 70B table', chapter: C5, anchor: 'the-large-model-table-done-right', correction: `ZeRO-2 on ${src70.gpus} GPUs is ${fmtGB(zero2Chapter)} under the source's own accounting, not ${fmtGB(src70.zero2)}; the book also shows the paper's accounting with fp32 master weights.` },
      { topic: 'ZeRO-1, -2, -3', chapter: C5, anchor: 'zero-1--2-and--3-what-each-shards-and-what-each-moves', correction: 'ZeRO-1 all-gathers updated parameters, never optimizer state. Its traffic is 2Ψ only with a reduce-scatter; PyTorch\'s ZeroRedundancyOptimizer (DDP all-reduce + broadcasts) and DeepSpeed\'s default bucket all-reduce move 3Ψ.' },
      { topic: 'FSDP sharding strategies', chapter: C6, anchor: 'sharding-strategies-are-zero-stages' },
      { topic: 'Communication volume comparison', chapter: C5, anchor: 'zero-1--2-and--3-what-each-shards-and-what-each-moves', correction: `ZeRO-3 moves 3Ψ per rank, ${commRatioToDdp('zero3')}× DDP, not ${SOURCE_ZERO3_COMM_MULTIPLE}×.` },
      { topic: 'When to use what', chapter: C6, anchor: 'choosing-ddp-shard_grad_op-or-full_shard' },
      { topic: 'Exercise 1: Manual DDP', chapter: C4, anchor: 'exercise-1-manual-ddp' },
      { topic: 'Exercise 2: Gradient Bucketing', chapter: C4, anchor: 'exercise-2-does-bucketing-help' },
      { topic: 'Exercise 3: Measure Communication Overhead', chapter: C4, anchor: 'exercise-3-measure-the-communication-overhead' },
      { topic: 'The efficiency equation', chapter: C6, anchor: 'the-efficiency-equation' },
    ],
  },
];

/** A claim about PyTorch, NCCL, DeepSpeed or a paper, and the primary source it was checked against. */
export interface PrimaryCitation {
  claim: string;
  chapter: string;
  anchor: string;
  /** Repository file and function, paper section, or maintainer comment. */
  source: string;
  url: string;
}

/** Checked against the sources on 2026-11-23 (PyTorch main, NCCL 2.30, DeepSpeed master). */
export const PRIMARY_SOURCES: PrimaryCitation[] = [
  {
    claim: 'env:// raises at once when RANK (or WORLD_SIZE, MASTER_ADDR, MASTER_PORT) is unset: "environment variable RANK expected, but not set".',
    chapter: C2, anchor: 'launching-torchrun-and-slurm',
    source: 'pytorch/pytorch torch/distributed/rendezvous.py, _env_rendezvous_handler (_get_env_or_raise)',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/rendezvous.py',
  },
  {
    claim: 'The 2(n−1)/n·D bound assumes the ranks reduce over point-to-point links; NVLS (NVLink SHARP) all-reduce reports a bus bandwidth above the NVLink line rate.',
    chapter: C2, anchor: 'algorithm-bandwidth-and-bus-bandwidth',
    source: 'NVIDIA/nccl src/graph/tuning.cc, ncclTopoTuneModel ("AllReduce pipelines two operations": NVLS bandwidth × 2 × nvlsEfficiency); maintainer comment in NVIDIA/nccl-tests issue 212',
    url: 'https://github.com/NVIDIA/nccl-tests/issues/212',
  },
  {
    claim: "PyTorch's ZeroRedundancyOptimizer keeps DDP's gradient all-reduce (2Ψ) and, after each rank steps its shard, broadcasts every rank's updated parameters (Ψ): 3Ψ.",
    chapter: C5, anchor: 'zero-1--2-and--3-what-each-shards-and-what-each-moves',
    source: 'pytorch/pytorch torch/distributed/optim/zero_redundancy_optimizer.py, ZeroRedundancyOptimizer.step → _sync_params → _broadcast_params_from_rank',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/optim/zero_redundancy_optimizer.py',
  },
  {
    claim: 'DeepSpeed stage 1/2 all-reduces each gradient bucket by default since v0.12.4 (use_multi_rank_bucket_allreduce, PR 4695), 3Ψ with the parameter all-gather; false restores one reduce per owning rank (2Ψ). Stage 1 in v0.1 all-reduced too; v0.2 (PR 217) added reduce-scatter.',
    chapter: C5, anchor: 'zero-1--2-and--3-what-each-shards-and-what-each-moves',
    source: 'microsoft/DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py, average_tensor → allreduce_and_scatter / allreduce_no_retain; deepspeed/runtime/zero/config.py; git history of deepspeed/runtime/engine.py (allreduce_gradients)',
    url: 'https://github.com/microsoft/DeepSpeed/blob/master/deepspeed/runtime/zero/stage_1_and_2.py',
  },
  {
    claim: 'ZeRO-1/2 move 2Ψ (reduce-scatter + all-gather), ZeRO-3 3Ψ; mixed-precision Adam is 2 + 2 + 12 bytes (K = 12).',
    chapter: C5, anchor: 'where-the-bytes-go',
    source: 'Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models" (SC 2020), section 3.1 (model states, K = 12) and section 7 (communication analysis)',
    url: 'https://arxiv.org/abs/1910.02054',
  },
  {
    claim: 'PyTorch keeps fp32 parameters and gradients under mixed precision (4 + 4 + 8): autocast casts per operation; FSDP keeps fp32 shards and gathers param_dtype copies; FSDP reduces in param_dtype unless reduce_dtype is set; DDP all-reduces fp32 unless a comm hook compresses.',
    chapter: C5, anchor: 'where-the-bytes-go',
    source: 'pytorch/pytorch torch/distributed/fsdp/_fully_shard/_fsdp_api.py MixedPrecisionPolicy; torch/distributed/fsdp/api.py MixedPrecision (reduce_dtype); torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py bf16_compress_hook',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/_fully_shard/_fsdp_api.py',
  },
  {
    claim: 'Patarasuk and Yuan: no all-reduce moves fewer than 2(n−1)/n·D bytes per rank when the ranks do the reduction; the ring meets the bound.',
    chapter: C2, anchor: 'the-αβ-cost-model',
    source: 'P. Patarasuk, X. Yuan, "Bandwidth optimal all-reduce algorithms for clusters of workstations", JPDC 69(2), 2009, section 3 (lower bound)',
    url: 'https://doi.org/10.1016/j.jpdc.2008.09.002',
  },
];

/** /chapters/<slug without NN->/ for a chapter file name. */
export function chapterHref(file: string): string {
  return `/chapters/${file.replace(/^\d+-/, '').replace(/\.mdx$/, '')}/`;
}
