/**
 * Where the book covers each topic of the five source documents (content/…/seeds 000–004),
 * as chapter file + heading anchor. A unit test checks that every anchor exists.
 */
import { commRatioToDdp } from './figures/comm-volume';
import { fmtGB } from './figures/format-quantities';
import { SOURCE_70B_TABLE, SOURCE_ZERO3_COMM_MULTIPLE } from './figures/source-errata';
import { zeroPerGpuBytes } from './figures/zero-memory';
import { PRIMARY_SOURCES_10 } from './source-map-chapter-10';
import { PRIMARY_SOURCES_SCALE } from './source-map-scale';

const src70 = SOURCE_70B_TABLE;
const zero2Chapter = zeroPerGpuBytes({
  params: src70.params,
  gpus: src70.gpus,
  strategy: 'zero2',
  accounting: 'chapter',
});

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

const C1 = '01-what-is-data-parallelism.mdx',
  C2 = '02-collectives.mdx',
  C3 = '03-data-parallel-from-scratch.mdx';
const C4 = '04-inside-ddp.mdx',
  C5 = '05-memory-and-zero.mdx',
  C6 = '06-fsdp-and-choosing.mdx';

export const SOURCE_MAP: SourceDocument[] = [
  {
    file: '000_a2dffad86171e097.txt',
    title: 'README of a torchrun demo of data parallelism',
    topics: [
      {
        topic: 'Model replication, data sharding, gradient synchronization',
        chapter: C1,
        anchor: 'the-recipe',
      },
      {
        topic: 'Demo: data-parallel inference, independent requests',
        chapter: C1,
        anchor: 'inference-needs-no-communication-at-all',
      },
      {
        topic: 'Demo: data-parallel inference with broadcast, scatter and gather',
        chapter: C2,
        anchor: 'one-to-many-many-to-one',
      },
      {
        topic: 'Demo: data-parallel training with gradient synchronization',
        chapter: C3,
        anchor: 'manual-ddp-a-wrapper-that-overrides-only-backward',
      },
      {
        topic:
          'Demo: a larger model under data parallelism (the book uses an MLP; the mechanics are the same for a transformer)',
        chapter: C4,
        anchor: 'try-it-six-exercises',
      },
      {
        topic: 'Demo: throughput benefits of more ranks',
        chapter: C3,
        anchor: 'throughput-and-the-global-batch-size',
      },
      {
        topic: 'Launching with torchrun --nproc_per_node',
        chapter: C2,
        anchor: 'launching-torchrun-and-slurm',
      },
      {
        topic: 'DP versus tensor and pipeline parallelism',
        chapter: C1,
        anchor: 'data-tensor-and-pipeline-parallelism',
      },
      {
        topic: 'When to use data parallelism',
        chapter: C1,
        anchor: 'when-data-parallelism-is-the-right-tool',
      },
      {
        topic: 'Limitations: full replica memory, gradient synchronization overhead',
        chapter: C5,
        anchor: 'where-the-bytes-go',
      },
    ],
  },
  {
    file: '001_1484db5f96fa40c0.txt',
    title: 'Interview question card, "Data Parallelism"',
    topics: [
      {
        topic: 'The algorithm: replicate, split, compute, all-reduce, update',
        chapter: C1,
        anchor: 'the-recipe',
      },
      {
        topic: 'Worked example: global batch over 8 GPUs, micro-batches',
        chapter: C3,
        anchor: 'gradient-accumulation',
      },
      {
        topic: 'Naive versus ring all-reduce communication',
        chapter: C2,
        anchor: 'the-αβ-cost-model',
        correction:
          'Per-rank ring traffic is 2(n−1)/n·D, nearly constant in n; the "O(n²) vs O(n)" contrast is loose. What grows is the latency term.',
      },
      {
        topic: 'Ring all-reduce, step by step',
        chapter: C2,
        anchor: 'the-ring-all-reduce-step-by-step',
      },
      {
        topic: 'DDP: one process per GPU, NCCL all-reduce',
        chapter: C3,
        anchor: 'nndataparallel-versus-distributeddataparallel',
      },
      {
        topic: 'FSDP / ZeRO: sharding parameters',
        chapter: C6,
        anchor: 'sharding-strategies-are-zero-stages',
      },
      {
        topic: 'Synchronous versus asynchronous updates, stragglers',
        chapter: C3,
        anchor: 'synchronous-and-asynchronous-sgd',
      },
      {
        topic: 'Bandwidth bottleneck: gradient size equals model size',
        chapter: C4,
        anchor: 'what-ddp-costs-and-when-it-scales-linearly',
      },
      {
        topic: 'When model parallelism is needed instead',
        chapter: C6,
        anchor: 'where-data-parallelism-stops',
      },
      {
        topic: 'Follow-up: gradient accumulation with data parallelism',
        chapter: C4,
        anchor: 'no_sync-and-gradient-accumulation',
      },
      {
        topic: 'Follow-up: DP versus DDP',
        chapter: C3,
        anchor: 'nndataparallel-versus-distributeddataparallel',
      },
    ],
  },
  {
    file: '002_ad678634d09cb1f6.txt',
    title: 'Book section on data parallelism',
    topics: [
      {
        topic: 'The bd,df->bf einsum with b = 5120, d = 2048, f = 1024 on 2 devices',
        chapter: C3,
        anchor: 'a-worked-example-bddf-bf',
      },
      {
        topic: 'Memory redundancy: the largest model is what fits on one device',
        chapter: C5,
        anchor: 'where-the-bytes-go',
      },
      {
        topic:
          'Feature / impact table (implementation, throughput, memory, communication, batch size)',
        chapter: C3,
        anchor: 'throughput-and-the-global-batch-size',
      },
      {
        topic: 'DataParallel(SingleDevice) overriding only backward',
        chapter: C3,
        anchor: 'manual-ddp-a-wrapper-that-overrides-only-backward',
      },
      { topic: 'Gradient bucketing and overlap', chapter: C4, anchor: 'buckets' },
      {
        topic: 'A live playground under the text',
        chapter: C3,
        anchor: 'manual-ddp-a-wrapper-that-overrides-only-backward',
      },
    ],
  },
  {
    file: '003_2a93f7b684c94e72.txt',
    title: 'Lecture notes on data parallelism',
    topics: [
      {
        topic: 'The banquet analogy',
        chapter: C1,
        anchor: 'the-banquet-analogy-and-where-it-breaks',
        correction:
          'Scaling is easy for inference only; in training the per-step all-reduce and stragglers bound the speed-up.',
      },
      { topic: 'Broadcast, scatter, gather', chapter: C2, anchor: 'the-eight-collectives' },
      { topic: 'The BatchNorm exception', chapter: C3, anchor: 'batchnorm-and-syncbatchnorm' },
      {
        topic: 'Inference with data parallelism',
        chapter: C3,
        anchor: 'inference-under-data-parallelism',
      },
      {
        topic: 'Training: forward, backward, all-reduce, update',
        chapter: C3,
        anchor: 'why-averaging-gradients-is-exact',
      },
      {
        topic: 'torch.distributed, c10d, NCCL / Gloo / MPI, RPC',
        chapter: C2,
        anchor: 'torchdistributed',
      },
      {
        topic: 'init_process_group, new_group, all_reduce with async_op handles',
        chapter: C2,
        anchor: 'torchdistributed',
      },
      {
        topic: 'Sync versus async collectives',
        chapter: C2,
        anchor: 'groups-asynchronous-handles-and-the-barrier',
      },
      { topic: 'DistributedDataParallel', chapter: C4, anchor: 'buckets' },
      {
        topic: 'Launching: MASTER_ADDR, MASTER_PORT, WORLD_SIZE, SLURM',
        chapter: C2,
        anchor: 'launching-torchrun-and-slurm',
        correction: 'The source script never sets RANK; each task must take it from SLURM_PROCID.',
      },
      {
        topic: 'all_reduce example: arange(2) + 1 + 2·rank',
        chapter: C2,
        anchor: 'everyone-to-everyone',
      },
    ],
  },
  {
    file: '004_9025589a4db2dcf3.txt',
    title: '"Chapter 5: Data Parallelism Deep Dive"',
    topics: [
      {
        topic: 'What data parallelism is: replicate, split, compute, synchronize, update',
        chapter: C1,
        anchor: 'the-recipe',
      },
      {
        topic: 'Gradient averaging math, equal and unequal splits',
        chapter: C3,
        anchor: 'why-averaging-gradients-is-exact',
        correction:
          'all_reduce(SUM)/world_size equals the weighted formula only for equal shards; weight by |B_r|/|B| otherwise.',
      },
      { topic: 'Unequal splits, live', chapter: C3, anchor: 'unequal-shards' },
      {
        topic: 'DDP internals: buckets, overlap, broadcast',
        chapter: C4,
        anchor: 'overlapping-communication-with-the-backward-pass',
      },
      {
        topic: 'The memory problem and the 70B table',
        chapter: C5,
        anchor: 'the-large-model-table-done-right',
        correction: `ZeRO-2 on ${src70.gpus} GPUs is ${fmtGB(zero2Chapter)} under the source's own accounting, not ${fmtGB(src70.zero2)}; the book also shows the paper's accounting with fp32 master weights.`,
      },
      {
        topic: 'ZeRO-1, -2, -3',
        chapter: C5,
        anchor: 'zero-1--2-and--3-what-each-shards-and-what-each-moves',
        correction:
          "ZeRO-1 all-gathers updated parameters, never optimizer state. Its traffic is 2Ψ only with a reduce-scatter; PyTorch's ZeroRedundancyOptimizer (DDP all-reduce + broadcasts) and DeepSpeed's default bucket all-reduce move 3Ψ.",
      },
      {
        topic: 'FSDP sharding strategies',
        chapter: C6,
        anchor: 'sharding-strategies-are-zero-stages',
      },
      {
        topic: 'Communication volume comparison',
        chapter: C5,
        anchor: 'zero-1--2-and--3-what-each-shards-and-what-each-moves',
        correction: `ZeRO-3 moves 3Ψ per rank, ${commRatioToDdp('zero3')}× DDP, not ${SOURCE_ZERO3_COMM_MULTIPLE}×.`,
      },
      {
        topic: 'When to use what',
        chapter: C6,
        anchor: 'choosing-ddp-shard_grad_op-or-full_shard',
      },
      { topic: 'Exercise 1: Manual DDP', chapter: C4, anchor: 'exercise-1-manual-ddp' },
      {
        topic: 'Exercise 2: Gradient Bucketing',
        chapter: C4,
        anchor: 'exercise-2-does-bucketing-help',
      },
      {
        topic: 'Exercise 3: Measure Communication Overhead',
        chapter: C4,
        anchor: 'exercise-3-measure-the-communication-overhead',
      },
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

/** Chapters 1–6, checked against the sources on 2026-11-23 (PyTorch main, NCCL 2.30, DeepSpeed master). */
const PRIMARY_SOURCES_1_TO_6: PrimaryCitation[] = [
  {
    claim:
      "A simulated DDP run charged as a named model cuts that model's buckets as PyTorch does: at construction (find_unused_parameters=False) one bucket ([sys.maxsize]); after the first iteration Reducer::rebuild_buckets assigns in gradient-arrival order with [_DEFAULT_FIRST_BUCKET_BYTES (1 MiB), bucket_cap_mb (25 MiB)], a bucket closing once it reaches its limit. Llama 2 7B in bf16 gives 226 buckets, the first the output layer alone.",
    chapter: C4,
    anchor: 'exercise-4-overlap-on-and-off',
    source:
      'pytorch/pytorch torch/nn/parallel/distributed.py (_ddp_init_helper: bucket_size_limits, reversed bucket_indices); torch/csrc/distributed/c10d/reducer.cpp (Reducer::rebuild_buckets: bucket_size_limits = {first_bucket_bytes_cap_, bucket_bytes_cap_}; compute_bucket_assignment_by_size)',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/csrc/distributed/c10d/reducer.cpp',
  },
  {
    claim:
      'Llama 2 7B as charged: dim 4096, 32 layers, 32 heads, SwiGLU hidden 256·⌈(2/3·4·dim)/256⌉ = 11008, vocabulary 32,000, untied output; parameters registered as tok_embeddings, per block wq, wk, wv, wo, w1, w2, w3, attention_norm, ffn_norm, then norm and output (6,738,415,616 in all). FSDP units are fully_shard per TransformerBlock, then the root (embedding, norm, output).',
    chapter: C6,
    anchor: 'prefetching-and-overlap',
    source:
      'pytorch/torchtitan torchtitan/models/llama/__init__.py (llama2 configs "7B", "13B"), torchtitan/models/llama/model.py (ModelArgs, FeedForward, TransformerBlock, Transformer), torchtitan/models/llama/parallelize_llama.py (apply_fsdp); Touvron et al. 2023, Llama 2, §2.1 (32k-token tokenizer)',
    url: 'https://github.com/pytorch/torchtitan/blob/main/torchtitan/models/llama/model.py',
  },
  {
    claim:
      "DDP launches bucket all-reduces strictly in bucket-index order (a ready bucket waits for earlier ones), and at the end of backward waits for all of them and writes the averages into .grad; an unused parameter stalls its bucket and every later one until the next forward fails with 'Expected to have finished reduction in the prior iteration'; find_unused_parameters adds a graph traversal in forward and an all-reduce of the used-parameter bitmap.",
    chapter: C4,
    anchor: 'overlapping-communication-with-the-backward-pass',
    source:
      'pytorch/pytorch torch/csrc/distributed/c10d/reducer.cpp (Reducer::mark_bucket_ready: "Buckets are reduced in sequence"; finalize_backward via queue_callback; ensure_prior_reduction_finished; all_reduce_local_used_map); docs/source/notes/ddp.rst (Backward Pass)',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/csrc/distributed/c10d/reducer.cpp',
  },
  {
    claim:
      "Under torch.autocast each fp32 leaf weight is cast to bf16 for its matmul and autograd saves the cast for backward: PyTorch's DDP and ZeRO-1 hold a bf16 copy of the whole model (2Ψ) from forward into backward; DDP's bucket buffers add the size of the gradients unless gradient_as_bucket_view=True.",
    chapter: C5,
    anchor: 'where-the-bytes-go',
    source:
      'pytorch/pytorch aten/src/ATen/autocast_mode.cpp (cached_cast); torch/nn/parallel/distributed.py (gradient_as_bucket_view docstring: the saved memory equals the total gradients size)',
    url: 'https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/autocast_mode.cpp',
  },
  {
    claim:
      'FSDP CPU offload keeps parameter and gradient shards in host memory and runs the optimizer on the CPU, so FSDP2\'s CPUOffloadPolicy ("offloads parameters, gradients, and optimizer states to CPU") moves all 16 bytes of the 4 + 4 + 8 layout (it pins host memory by default); ZeRO-Offload moves optimizer state, gradients and the Adam step to the CPU and keeps the half-precision parameters on the GPU; parameter offload is ZeRO-3 offload_param.',
    chapter: C6,
    anchor: 'cpu-offload-in-principle',
    source:
      'pytorch/pytorch torch/distributed/fsdp/api.py (CPUOffload docstring: "this offloads gradients to CPU as well, meaning that the optimizer step runs on CPU"), torch/distributed/fsdp/_fully_shard/_fsdp_api.py (CPUOffloadPolicy); microsoft/DeepSpeed docs/code-docs/source/zero3.rst, deepspeed/runtime/zero/offload_config.py',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/api.py',
  },
  {
    claim:
      "All-to-all: nccl-tests posts ncclSend/ncclRecv to every peer inside ncclGroupStart/ncclGroupEnd and reports busbw = algbw·(n−1)/n; PyTorch's all_to_all_single does the same on NCCL before 2.28 and calls ncclAlltoAll (added in NCCL 2.28) from there on; pairwise exchange costs (n−1)α + (n−1)/n·Dβ",
    chapter: C2,
    anchor: 'all-to-all-the-collective-of-experts-and-sequence-shards',
    source:
      'NVIDIA/nccl-tests src/alltoall.cu, AlltoAllRunColl and AlltoAllGetBw; pytorch/pytorch torch/csrc/cuda/nccl.cpp, all2all_single_equal_split (ncclAlltoAll when NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0), else ncclGroupStart + ncclSend/ncclRecv per peer); NVIDIA/nccl src/collectives.cc, ncclAlltoAll; Thakur, Rabenseifner, Gropp 2005, "Optimization of Collective Communication Operations in MPICH" (IJHPCA 19(1)), the section on all-to-all (pairwise exchange for long messages)',
    url: 'https://github.com/NVIDIA/nccl-tests/blob/master/src/alltoall.cu',
  },
  {
    claim:
      'NCCL launches each collective as one CUDA thread block per channel (grid = nChannels), so an overlapped all-reduce runs on the same SMs as the backward kernels',
    chapter: C4,
    anchor: 'what-ddp-costs-and-when-it-scales-linearly',
    source: 'NVIDIA/nccl src/enqueue.cc, ncclLaunchKernel (dim3 grid = {nChannels, 1, 1})',
    url: 'https://github.com/NVIDIA/nccl/blob/master/src/enqueue.cc',
  },
  {
    claim:
      'Beyond two nodes NCCL prices rings (and trees) by the inter-node bandwidth of the graph, not the intra-node one: bw = nNodes <= 2 || collnet ? graphs[a]->bwIntra : graphs[a]->bwInter',
    chapter: C6,
    anchor: 'the-efficiency-equation',
    source: 'NVIDIA/nccl src/graph/tuning.cc, ncclTopoTuneModel (busBw per algorithm and protocol)',
    url: 'https://github.com/NVIDIA/nccl/blob/master/src/graph/tuning.cc',
  },
  {
    claim:
      "DDP all-reduces each bucket in the gradients' dtype (fp32 for fp32 parameters under autocast) unless a communication hook casts it (fp16_compress_hook, bf16_compress_hook), so the break-even table's bf16 gradients assume such a hook or bf16 parameters",
    chapter: C6,
    anchor: 'the-efficiency-equation',
    source:
      'pytorch/pytorch torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py (allreduce_hook sends the bucket buffer as is; bf16_compress_hook casts to torch.bfloat16); torch/csrc/distributed/c10d/reducer.cpp (one bucket per dtype)',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py',
  },
  {
    claim:
      'env:// raises at once when RANK (or WORLD_SIZE, MASTER_ADDR, MASTER_PORT) is unset: "environment variable RANK expected, but not set".',
    chapter: C2,
    anchor: 'launching-torchrun-and-slurm',
    source:
      'pytorch/pytorch torch/distributed/rendezvous.py, _env_rendezvous_handler (_get_env_or_raise)',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/rendezvous.py',
  },
  {
    claim:
      'Every process told it is rank 0 (outside torchrun) starts the TCPStore server on MASTER_PORT: all but one per node fail with EADDRINUSE, the survivors time out (reproduced with torch 1.13, gloo, two processes: "The server socket has failed to listen on any local network address … Address already in use", then "Socket Timeout").',
    chapter: C2,
    anchor: 'launching-torchrun-and-slurm',
    source:
      'pytorch/pytorch torch/distributed/rendezvous.py, _create_c10d_store (start_daemon = rank == 0 unless TORCHELASTIC_USE_AGENT_STORE)',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/rendezvous.py',
  },
  {
    claim:
      'The 2(n−1)/n·D bound assumes the ranks reduce over point-to-point links; NVLS (NVLink SHARP) all-reduce reports a bus bandwidth above the NVLink line rate.',
    chapter: C2,
    anchor: 'algorithm-bandwidth-and-bus-bandwidth',
    source:
      'NVIDIA/nccl src/graph/tuning.cc, ncclTopoTuneModel ("AllReduce pipelines two operations": NVLS bandwidth × 2 × nvlsEfficiency); maintainer comment in NVIDIA/nccl-tests issue 212',
    url: 'https://github.com/NVIDIA/nccl-tests/issues/212',
  },
  {
    claim:
      "The α of chapter 2's flat ring is NCCL's latency for one network step of a ring (Simple): 14 µs in the NCCL the book's cluster model cites (2.30.7) and since 2.18, 9.6 µs in 2.14–2.17.",
    chapter: C2,
    anchor: 'the-αβ-cost-model',
    source:
      'NVIDIA/nccl src/graph/tuning.cc at v2.30.7-1, ncclTunerConstantsDefaults.hwLatencies[NET][RING][SIMPLE]; history per release tag in playground/simulation/nccl-constants.ts (RING_NET_SIMPLE_HOP_HISTORY_US)',
    url: 'https://github.com/NVIDIA/nccl/blob/v2.30.7-1/src/graph/tuning.cc',
  },
  {
    claim:
      'Across nodes NCCL runs its rings through NVLink inside a node and enters and leaves each node through a NIC, several such flows at once, so a node with a NIC per GPU drives all its NICs (rails); the all-reduce times of chapters 4 and 6 come from the cluster model that prices it so.',
    chapter: C6,
    anchor: 'the-efficiency-equation',
    source:
      'sjeaugey (NVIDIA) in NVIDIA/nccl issue 412: "NCCL is able to aggregate the bandwidth of multiple NICs … data can flow from the NIC to the nearest GPU, go through all the other GPUs through NVLink, then exit from the last GPU, back to the NIC"; issue 1933: "the output NIC of a node will connect to the input NIC of the other node"; NICs per node in playground/simulation/presets.ts',
    url: 'https://github.com/NVIDIA/nccl/issues/412',
  },
  {
    claim:
      "Chapter 4's 7B/64-GPU example on eight DGX H100 nodes: NVLink SHARP inside the node with a tree across nodes, or rings on NVLink with NVLS off (NCCL_NVLS_ENABLE=0).",
    chapter: C4,
    anchor: 'what-ddp-costs-and-when-it-scales-linearly',
    source:
      'NVIDIA/nccl src/graph/tuning.cc at v2.30.7-1 (ncclTopoTuneModel: NVLS and NVLS_TREE bandwidths, nvlsEfficiency); DGX H100 in the DGX BasePod reference architecture (eight GPUs, eight 400 Gb/s ConnectX-7)',
    url: 'https://github.com/NVIDIA/nccl/blob/v2.30.7-1/src/graph/tuning.cc',
  },
  {
    claim:
      "PyTorch's ZeroRedundancyOptimizer keeps DDP's gradient all-reduce (2Ψ) and, after each rank steps its shard, broadcasts every rank's updated parameters (Ψ): 3Ψ.",
    chapter: C5,
    anchor: 'zero-1--2-and--3-what-each-shards-and-what-each-moves',
    source:
      'pytorch/pytorch torch/distributed/optim/zero_redundancy_optimizer.py, ZeroRedundancyOptimizer.step → _sync_params → _broadcast_params_from_rank',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/optim/zero_redundancy_optimizer.py',
  },
  {
    claim:
      'DeepSpeed stage 1/2 all-reduces each gradient bucket by default since v0.12.4 (use_multi_rank_bucket_allreduce, PR 4695), 3Ψ with the parameter all-gather; false restores one reduce per owning rank (2Ψ). Stage 1 in v0.1 all-reduced too; v0.2 (PR 217) added reduce-scatter.',
    chapter: C5,
    anchor: 'zero-1--2-and--3-what-each-shards-and-what-each-moves',
    source:
      'microsoft/DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py, average_tensor → allreduce_and_scatter / allreduce_no_retain; deepspeed/runtime/zero/config.py; git history of deepspeed/runtime/engine.py (allreduce_gradients)',
    url: 'https://github.com/microsoft/DeepSpeed/blob/master/deepspeed/runtime/zero/stage_1_and_2.py',
  },
  {
    claim:
      'ZeRO-1/2 move 2Ψ (reduce-scatter + all-gather), ZeRO-3 3Ψ; mixed-precision Adam is 2 + 2 + 12 bytes (K = 12).',
    chapter: C5,
    anchor: 'where-the-bytes-go',
    source:
      'Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models" (SC 2020), section 3.1 (model states, K = 12) and section 7 (communication analysis)',
    url: 'https://arxiv.org/abs/1910.02054',
  },
  {
    claim:
      'PyTorch keeps fp32 parameters and gradients under mixed precision (4 + 4 + 8): autocast casts per operation; FSDP keeps fp32 shards and gathers param_dtype copies; FSDP reduces in param_dtype unless reduce_dtype is set (released FSDP1 and FSDP2; recent FSDP2 development builds fall back to the parameter dtype); DDP all-reduces fp32 unless a comm hook compresses.',
    chapter: C5,
    anchor: 'where-the-bytes-go',
    source:
      'pytorch/pytorch torch/distributed/fsdp/_fully_shard/_fsdp_api.py MixedPrecisionPolicy; torch/distributed/fsdp/api.py MixedPrecision (reduce_dtype); torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py bf16_compress_hook',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/_fully_shard/_fsdp_api.py',
  },
  {
    claim:
      'Megatron-LM in bf16 accumulates and all-reduces gradients in fp32 by default (2 + 4 + 12 = 18 bytes per parameter with Adam), not the 2 + 2 + 12 of DeepSpeed ZeRO; --grad-reduce-in-bf16 turns it off.',
    chapter: C5,
    anchor: 'where-the-bytes-go',
    source:
      'NVIDIA/Megatron-LM megatron/training/arguments.py, validate_args, the `if args.bf16:` branch ("bfloat16 requires gradient accumulation and all-reduce to be done in fp32"); the README\'s distributed-optimizer table (bf16 param, fp32 grads: 18 bytes)',
    url: 'https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/training/arguments.py',
  },
  {
    claim:
      'no_sync must wrap the forward as well as the backward: DDP reads require_backward_grad_sync in forward, so a forward outside the context followed by a backward inside it still all-reduces.',
    chapter: C4,
    anchor: 'no_sync-and-gradient-accumulation',
    source:
      'pytorch/pytorch torch/nn/parallel/distributed.py, DistributedDataParallel.no_sync docstring ("The forward pass should be included inside the context manager, or else gradients will still be synchronized") and _pre_forward',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/nn/parallel/distributed.py',
  },
  {
    claim:
      'Patarasuk and Yuan: no all-reduce moves fewer than 2(n−1)/n·D bytes per rank when the ranks do the reduction; the ring meets the bound.',
    chapter: C2,
    anchor: 'the-αβ-cost-model',
    source:
      'P. Patarasuk, X. Yuan, "Bandwidth optimal all-reduce algorithms for clusters of workstations", JPDC 69(2), 2009, section 3 (lower bound)',
    url: 'https://doi.org/10.1016/j.jpdc.2008.09.002',
  },
  {
    claim:
      'FSDP2 prefetches one unit ahead in backward by default (reverse post-forward order) unless set_modules_to_backward_prefetch gives a list, has set_modules_to_forward_prefetch for explicit forward prefetch, and has no switch that turns backward prefetch off; the forwardPrefetch / backwardPrefetch counts of fullyShard stand for those lists.',
    chapter: C6,
    anchor: 'prefetching-and-overlap',
    source:
      'pytorch/pytorch torch/distributed/fsdp/_fully_shard/_fsdp_state.py FSDPState._pre_backward (default_prefetch = len(self._states_to_backward_prefetch) == 0) and _pre_forward; _fully_shard.py FSDPModule.set_modules_to_forward_prefetch, set_modules_to_backward_prefetch',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/_fully_shard/_fsdp_state.py',
  },
  {
    claim:
      "FSDP1's backward_prefetch: BACKWARD_PRE issues the next all-gather before the current gradient computation, BACKWARD_POST after it, None not at all; collectives issued on different streams contend for the same per-device NCCL stream, so an unprefetched all-gather waits behind the reduce-scatter.",
    chapter: C6,
    anchor: 'prefetching-and-overlap',
    source:
      'pytorch/pytorch torch/distributed/fsdp/api.py BackwardPrefetch docstring; torch/distributed/fsdp/_runtime_utils.py _post_backward_reshard (_prefetch_handle before _reduce_grad)',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/api.py',
  },
  {
    claim:
      "FSDP2's recipe for a transformer: fully_shard on each block, then on the root, whose unit takes the parameters no block claimed (embeddings, head); reshard_after_forward left as None is True for every unit but the root, which keeps its parameters for backward. torchtitan's apply_fsdp also gives the token embeddings and [norm, output] units of their own.",
    chapter: C1,
    anchor: 'the-same-recipe-on-a-transformer',
    source:
      'pytorch/pytorch torch/distributed/fsdp/_fully_shard/_fully_shard.py, fully_shard docstring ("should be called bottom-up", "should *not* call fully_shard only on the topmost root module", reshard_after_forward None); pytorch/torchtitan torchtitan/models/llama3/infra/parallelize.py, apply_fsdp',
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/_fully_shard/_fully_shard.py',
  },
];

/** /chapters/<slug without NN->/ for a chapter file name. */
export function chapterHref(file: string): string {
  return `/chapters/${file.replace(/^\d+-/, '').replace(/\.mdx$/, '')}/`;
}

/** Chapters 7–9: claims and the primary sources they were checked against on 2026-11-23. */
const C7 = '07-activations-and-precision.mdx',
  C8 = '08-batch-size-and-learning-rate.mdx',
  C9 = '09-operating-at-scale.mdx';
const KORTHIKANTI =
  'Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models"';
const TORCH = 'pytorch/pytorch';

const PRIMARY_SOURCES_7_TO_9: PrimaryCitation[] = [
  {
    claim:
      'post_localSGD_hook: after start_localSGD_iter gradients are still all-reduced every step within a subgroup (the intra-node group by default), and PeriodicModelAverager averages parameters globally every period steps.',
    chapter: C9,
    anchor: 'low-communication-data-parallelism',
    source: `${TORCH}, torch/distributed/algorithms/ddp_comm_hooks/post_localSGD_hook.py (PostLocalSGDState docstring); torch/distributed/algorithms/model_averaging/averagers.py (PeriodicModelAverager)`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/algorithms/ddp_comm_hooks/post_localSGD_hook.py',
  },
  {
    claim:
      "The transformer demo's FSDP run shards as PyTorch's recipe does: fully_shard per block, then the root (embeddings and head), the root kept unsharded from forward to backward by default.",
    chapter: C7,
    anchor: 'the-same-block-trained-under-ddp-and-fsdp',
    source: `${TORCH}, torch/distributed/fsdp/_fully_shard/_fully_shard.py, fully_shard docstring (bottom-up calls, reshard_after_forward None); pytorch/torchtitan torchtitan/models/llama3/infra/parallelize.py, apply_fsdp`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/_fully_shard/_fully_shard.py',
  },
  {
    claim:
      'Per-layer activations sbh(34 + 5as/h): attention 11sbh + 5as²b, MLP 19sbh, LayerNorm 4sbh; 16-bit activations, 1-byte masks',
    chapter: C7,
    anchor: 'counting-the-bytes-of-one-layer',
    source: `${KORTHIKANTI}, §4.1, Eq. 1`,
    url: 'https://arxiv.org/abs/2205.05198',
  },
  {
    claim:
      'Pipeline parallelism does not shrink activations: Megatron-LM estimates the first pipeline stage, multiplies the per-layer activations by all num_layers (L/p layers × p micro-batches in flight under 1F1B), by 1 + (p − 1)/(p·v) for the interleaved schedule, and by min(1, m/p) when fewer micro-batches than stages; with sequence parallelism and selective recomputation a layer keeps (18 + 4·ffn/h)·sbh = 34sbh, divided by t; without sequence parallelism sbh(10 + 24/t)',
    chapter: C7,
    anchor: 'sequence-context-and-pipeline-parallelism',
    source:
      'NVIDIA/Megatron-LM, megatron/training/theoretical_memory_usage.py, compute_activation_memory ("all calculations in this function are for the first pipeline stage") and compute_activation_memory_without_sp; Korthikanti et al. 2022, Table 2 and Eq. 4',
    url: 'https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/training/theoretical_memory_usage.py',
  },
  {
    claim:
      'Context parallelism splits the inputs and all activations along the sequence; attention all-gathers K and V (point-to-point in a ring, as ring attention), so the activation footprint per GPU is CP times smaller',
    chapter: C7,
    anchor: 'sequence-context-and-pipeline-parallelism',
    source:
      'NVIDIA/Megatron-LM, docs/source/api-guide/context_parallel.rst ("Context parallelism overview", "Context parallelism benefits")',
    url: 'https://github.com/NVIDIA/Megatron-LM/blob/main/docs/source/api-guide/context_parallel.rst',
  },
  {
    claim:
      'PyTorch context parallel rotates K/V shards with all-gather (default) or all-to-all (set_rotate_method); DeepSpeed-Ulysses all-to-alls Q, K, V from sequence shards to head shards (scatter_idx heads, gather_idx sequence) and the output back',
    chapter: C7,
    anchor: 'sequence-context-and-pipeline-parallelism',
    source: `${TORCH}, torch/distributed/tensor/experimental/_attention.py, context_parallel and set_rotate_method; microsoft/DeepSpeed, deepspeed/sequence/layer.py, DistributedAttention and _SeqAllToAll`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/tensor/experimental/__init__.py',
  },
  {
    claim: 'Tensor parallelism: sbh(10 + 24/t + 5as/(ht))',
    chapter: C7,
    anchor: 'counting-the-bytes-of-one-layer',
    source: `${KORTHIKANTI}, §4.2.1, Eq. 2`,
    url: 'https://arxiv.org/abs/2205.05198',
  },
  {
    claim:
      'Full recomputation keeps 2sbh per layer and costs 30–40 % time; selective recomputation drops the 5as/h term (34sbh/t)',
    chapter: C7,
    anchor: 'recomputation-full-and-selective',
    source: `${KORTHIKANTI}, §5 and Eq. 6`,
    url: 'https://arxiv.org/abs/2205.05198',
  },
  {
    claim:
      'GPT-3 175B: 96 layers, d_model 12288, 96 heads, context 2048; GPT-3 XL: 24 layers, d_model 2048, 24 heads (the row gives d_head 128, and 24 × 128 is not 2048; the book uses a and h)',
    chapter: C7,
    anchor: 'counting-the-bytes-of-one-layer',
    source: 'Brown et al. 2020, "Language Models are Few-Shot Learners", Table 2.1',
    url: 'https://arxiv.org/abs/2005.14165',
  },
  {
    claim: 'Forward FLOPs per layer 24bsh² + 4bs²h (2 FLOPs per multiply-add)',
    chapter: C7,
    anchor: 'recomputation-full-and-selective',
    source:
      'Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", §5.1 (FLOP count); the book derives the recomputation overheads from it',
    url: 'https://arxiv.org/abs/2104.04473',
  },
  {
    claim:
      'torch.utils.checkpoint.checkpoint(use_reentrant=False), create_selective_checkpoint_contexts',
    chapter: C7,
    anchor: 'recomputation-full-and-selective',
    source: `${TORCH}, torch/utils/checkpoint.py`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/utils/checkpoint.py',
  },
  {
    claim:
      'ShardedGradScaler all-reduces found_inf across the process group in unscale_; defaults init_scale 2^16, growth 2.0, backoff 0.5, interval 2000',
    chapter: C7,
    anchor: 'mixed-precision-in-practice',
    source: `${TORCH}, torch/distributed/fsdp/sharded_grad_scaler.py, ShardedGradScaler.__init__ and unscale_`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/sharded_grad_scaler.py',
  },
  {
    claim:
      "FSDP2's gradients are DTensors; DTensor routes the scaler's non-finite check (aten._amp_foreach_non_finite_check_and_unscale_) to a handler that marks found_inf Partial('max') over the mesh and reduces it, so the plain torch.amp.GradScaler agrees on every rank (test_fully_shard_grad_scaler.py puts an inf on one rank only)",
    chapter: C7,
    anchor: 'mixed-precision-in-practice',
    source: `${TORCH}, torch/distributed/tensor/_dispatch.py, found_inf_reduce_handler and OpDispatcher.__init__; test/distributed/_composable/fsdp/test_fully_shard_grad_scaler.py`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/tensor/_dispatch.py',
  },
  {
    claim:
      'MixedPrecisionPolicy: param_dtype for unsharded params, all-gather and compute; reduce_dtype for the gradient reduction; sharded params stay in the original dtype, so FSDP keeps no separate fp32 master copy (the docstring: "does not require any extra memory to keep a high-precision copy"), unlike DeepSpeed ZeRO\'s 2 + 2 + 12',
    chapter: C7,
    anchor: 'mixed-precision-in-practice',
    source: `${TORCH}, torch/distributed/fsdp/_fully_shard/_fsdp_api.py, MixedPrecisionPolicy`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/_fully_shard/_fsdp_api.py',
  },
  {
    claim:
      'bf16_compress_hook / fp16_compress_hook cast the bucket, divide by world size, all-reduce, cast back',
    chapter: C7,
    anchor: 'mixed-precision-in-practice',
    source: `${TORCH}, torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py',
  },
  {
    claim:
      'PowerSGD: P and Q all-reduced in turn, error feedback, warm start, start_powerSGD_iter, min_compression_rate 2, rank 1 default; error feedback keeps a bucket-sized residual (error_dict) and clones the bucket each step (input_tensor_cp), warm start keeps P and Q',
    chapter: C7,
    anchor: 'mixed-precision-in-practice',
    source: `${TORCH}, torch/distributed/algorithms/ddp_comm_hooks/powerSGD_hook.py, PowerSGDState and powerSGD_hook (Vogels et al. 2019)`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/algorithms/ddp_comm_hooks/powerSGD_hook.py',
  },
  {
    claim: 'fp16 max 65504, min normal 2^-14, subnormal 2^-24; bf16 keeps 8 exponent bits',
    chapter: C7,
    anchor: 'mixed-precision-in-practice',
    source:
      'IEEE 754-2008, section 3.6 (Table 3.5, binary16 parameters); bfloat16 as the truncated binary32, computed in src/lib/figures/mixed-precision.ts',
    url: 'https://doi.org/10.1109/IEEESTD.2008.4610935',
  },
  {
    claim:
      'Linear scaling rule and gradual warm-up; η = 0.1·kn/256; 8192 images on 256 GPUs; at 8k without warm-up the run still trains but ends at 24.84 % top-1 error (baseline 23.60 %, constant warm-up 25.88 %, gradual 23.74 %)',
    chapter: C8,
    anchor: 'the-linear-scaling-rule-and-warm-up',
    source:
      'Goyal et al. 2017, "Accurate, Large Minibatch SGD: Training ImageNet in 1 Hour", §2.1 (linear scaling), §2.2 (warm-up), §5.2 (Table 1, Fig. 2)',
    url: 'https://arxiv.org/abs/1706.02677',
  },
  {
    claim: 'Square-root scaling rule for Adam/RMSprop (with 1 − β scaled too)',
    chapter: C8,
    anchor: 'adam-and-the-square-root-rule',
    source:
      'Malladi et al. 2022, "On the SDEs and Scaling Rules for Adaptive Gradient Algorithms" (NeurIPS 2022), abstract: the square-root scaling rule',
    url: 'https://arxiv.org/abs/2205.10287',
  },
  {
    claim:
      "LARS local learning rate λ_l = η·‖w_l‖/(‖∇L(w_l)‖ + β‖w_l‖), with η a trust coefficient (0.001) and the step γ·λ_l·(∇L + βw) scaled by the global rate γ; LAMB applies the ratio to Adam's update",
    chapter: C8,
    anchor: 'lars-and-lamb-a-rate-per-layer',
    source:
      'You, Gitman, Ginsburg 2017, "Large Batch Training of Convolutional Networks" (arXiv:1708.03888), section 3 (LARS, Algorithm 1, trust coefficient η); You et al. 2020, "Large Batch Optimization for Deep Learning: Training BERT in 76 minutes" (arXiv:1904.00962), Algorithm 2 (LAMB)',
    url: 'https://arxiv.org/abs/1708.03888',
  },
  {
    claim:
      'B_simple = tr(Σ)/|G|², S = S_min(1 + B_noise/B), E = E_min(1 + B/B_noise), B_crit = E_min/S_min; Adam optimal rate ∝ B^α, α in [0.5, 1]',
    chapter: C8,
    anchor: 'the-gradient-noise-scale-and-the-critical-batch-size',
    source:
      'McCandlish et al. 2018, "An Empirical Model of Large-Batch Training", §2 (noise scale, steps–examples trade-off)',
    url: 'https://arxiv.org/abs/1812.06162',
  },
  {
    claim:
      "Unbiased estimates of |G|² and tr(Σ) from the squared gradient norms at two batch sizes (in data parallelism: one device's batch and all devices' together), B_simple = tr(Σ)/|G|² their ratio; B_simple = B_noise when the Hessian is a multiple of the identity; B_crit = E_min/S_min (the playground 08-critical-batch.ts and src/lib/figures/critical-batch.ts compute them)",
    chapter: C8,
    anchor: 'measure-it-the-critical-batch-at-1024-ranks',
    source:
      'McCandlish et al. 2018, "An Empirical Model of Large-Batch Training", Appendix A.1 (unbiased estimate of the simple noise scale, B_small and B_big), §2.2 (B_simple and B_noise), §2.3 (B_crit = E_min/S_min)',
    url: 'https://arxiv.org/abs/1812.06162',
  },
  {
    claim: 'GPT-3 batch sizes 0.5M–3.2M tokens, learning rates, batch ramp-up',
    chapter: C8,
    anchor: 'batch-size-in-tokens',
    source: 'Brown et al. 2020, Table 2.1 and Appendix B',
    url: 'https://arxiv.org/abs/2005.14165',
  },
  {
    claim:
      'Critical batch as the loss falls: B_crit(L) ≈ B*/L^(1/α_B), B* ≈ 2·10⁸ tokens, α_B ≈ 0.21; GPT-3 ramps the batch linearly from 32k tokens over the first 4–12B tokens; Llama 3 405B: 4M tokens at sequence 4,096, 8M at 8,192 after 252M tokens, 16M after 2.87T',
    chapter: C8,
    anchor: 'batch-ramps-the-critical-batch-grows-as-the-loss-falls',
    source:
      'Kaplan et al. 2020, "Scaling Laws for Neural Language Models", §5.1 (Eq. 5.3); Brown et al. 2020, Appendix B; Dubey et al. 2024, "The Llama 3 Herd of Models", §3.4.1',
    url: 'https://arxiv.org/abs/2001.08361',
  },
  {
    claim:
      'μP: with Adam the learning rate of hidden weights scales as 1/width and the output is multiplied by 1/width, so hyperparameters tuned on a narrow proxy transfer (μTransfer)',
    chapter: C8,
    anchor: 'hyperparameters-across-width-μp',
    source:
      'Yang et al. 2022, "Tensor Programs V: Tuning Large Neural Networks via Zero-Shot Hyperparameter Transfer" (arXiv:2203.03466), Table 3 (μP for Adam)',
    url: 'https://arxiv.org/abs/2203.03466',
  },
  {
    claim:
      'GPT-3 trains with Adam β1 = 0.9, β2 = 0.95, ε = 1e-8; at scale per-coordinate gradients shrink towards ε and the update norm collapses, which a smaller AdamW ε prevents',
    chapter: C8,
    anchor: 'adams-β-and-ε-at-scale',
    source:
      'Brown et al. 2020, Appendix B; Wortsman et al. 2023, "Small-scale proxies for large-scale Transformer training instabilities" (arXiv:2309.14322), section 3.4 (AdamW epsilon)',
    url: 'https://arxiv.org/abs/2309.14322',
  },
  {
    claim:
      'Warmup-stable-decay: warm up, hold the peak rate, decay in a short final phase where the loss drops sharply; stable-phase checkpoints can be continued or decayed',
    chapter: C8,
    anchor: 'warmup-stable-decay-schedules',
    source:
      'Hu et al. 2024, "MiniCPM: Unveiling the Potential of Small Language Models with Scalable Training Strategies" (arXiv:2404.06395), section 4 (WSD scheduler)',
    url: 'https://arxiv.org/abs/2404.06395',
  },
  {
    claim: 'Hierarchical all-reduce arithmetic in the α–β model; NCCL latencies per step',
    chapter: C9,
    anchor: 'hierarchical-collectives-and-rails',
    source: 'NVIDIA/nccl, src/graph/tuning.cc hwLat (via src/lib/figures/link-presets.ts)',
    url: 'https://github.com/NVIDIA/nccl/blob/master/src/graph/tuning.cc',
  },
  {
    claim:
      "NCCL doubles a graph's channels only when its per-channel bandwidth bwIntra is at least 25 GB/s, never for the NVLS pattern, and not when ccMin > 80 with bwIntra < 50 and more than four channels; NVLS costs 25 µs per NVLink step against 0.6 µs for a ring step with LL, so it is a large-message algorithm and trees serve latency-bound sizes across nodes",
    chapter: C9,
    anchor: 'hierarchical-collectives-and-rails',
    source:
      'NVIDIA/nccl, src/graph/search.cc, ncclTopoDupChannels (called at the end of pass 1 of ncclTopoCompute); src/graph/tuning.cc, hwLatencies (NVLINK: NVLS Simple 25, Ring LL 0.6)',
    url: 'https://github.com/NVIDIA/nccl/blob/master/src/graph/search.cc',
  },
  {
    claim:
      'fully_shard with a 2-D mesh is HSDP, placement (Replicate(), Shard(0)); FSDP1 HYBRID_SHARD',
    chapter: C9,
    anchor: 'hsdp-shard-inside-a-node-replicate-across-nodes',
    source: `${TORCH}, torch/distributed/fsdp/_fully_shard/_fully_shard.py, fully_shard docstring (mesh)`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/_fully_shard/_fully_shard.py',
  },
  {
    claim: 'FSDP1 clip_grad_norm_: local norm, all_reduce(norm**p, SUM), root; MAX for inf-norm',
    chapter: C9,
    anchor: 'gradient-clipping-under-sharding',
    source: `${TORCH}, torch/distributed/fsdp/fully_sharded_data_parallel.py, FullyShardedDataParallel.clip_grad_norm_`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/fully_sharded_data_parallel.py',
  },
  {
    claim: 'FSDP2: the norm of DTensor gradients is a DTensor; full_tensor() reduces it',
    chapter: C9,
    anchor: 'gradient-clipping-under-sharding',
    source: 'pytorch/torchtitan, torchtitan/distributed/utils.py, clip_grad_norm_',
    url: 'https://github.com/pytorch/torchtitan/blob/main/torchtitan/distributed/utils.py',
  },
  {
    claim:
      "That norm's placement is _NormPartial, a pending p-norm reduction: p-th powers, all-reduce SUM, p-th root (MAX for the infinity norm)",
    chapter: C9,
    anchor: 'gradient-clipping-under-sharding',
    source: `${TORCH}, torch/distributed/tensor/_ops/_math_ops.py, _NormPartial (docstring: "x^p -> allreduce sum -> x^(1/p)")`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/tensor/_ops/_math_ops.py',
  },
  {
    claim:
      'FSDP1 clip_grad_norm_ raises unless called on the root instance; plain torch.nn.utils.clip_grad_norm_ would scale each rank by its own shard',
    chapter: C9,
    anchor: 'gradient-clipping-under-sharding',
    source: `${TORCH}, torch/distributed/fsdp/fully_sharded_data_parallel.py, FullyShardedDataParallel.clip_grad_norm_ (docstring note; "should only be called on the root FSDP instance")`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/fully_sharded_data_parallel.py',
  },
  {
    claim:
      'DCP: each rank r writes its own __r_N.distcp files, plus one .metadata; load reads only the local shards; resharding on load',
    chapter: C9,
    anchor: 'sharded-checkpoints-and-resharding',
    source: `${TORCH}, torch/distributed/checkpoint/filesystem.py (DEFAULT_SUFFIX, .metadata), state_dict_loader.py load()`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/checkpoint/filesystem.py',
  },
  {
    claim:
      "FSDP2 reduce_dtype=None: the reduction follows the parameter's grad_dtype, unset meaning the original parameter dtype, independent of param_dtype (current main; older releases took param_dtype), so bf16 HSDP reductions need reduce_dtype=torch.bfloat16",
    chapter: C9,
    anchor: 'hsdp-shard-inside-a-node-replicate-across-nodes',
    source: `${TORCH}, torch/distributed/fsdp/_fully_shard/_fsdp_api.py, MixedPrecisionPolicy docstring (reduce_dtype)`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/fsdp/_fully_shard/_fsdp_api.py',
  },
  {
    claim:
      'init_device_mesh(device_type, mesh_shape, *, mesh_dim_names=...) builds the 2-D ("replicate", "shard") mesh',
    chapter: C9,
    anchor: 'hsdp-shard-inside-a-node-replicate-across-nodes',
    source: `${TORCH}, torch/distributed/device_mesh.py, init_device_mesh`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/device_mesh.py',
  },
  {
    claim:
      'dcp.save(state_dict, *, checkpoint_id=...) and dcp.async_save; the coordinator rank writes the metadata after every rank wrote its files; dcp.load fills the given state dict in place',
    chapter: C9,
    anchor: 'sharded-checkpoints-and-resharding',
    source: `${TORCH}, torch/distributed/checkpoint/state_dict_saver.py, save, async_save and _save_state_dict (finish_checkpoint on the coordinator); docs "Distributed Checkpoint" (operates in place)`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/checkpoint/state_dict_saver.py',
  },
  {
    claim:
      'get_state_dict(model, optimizers) returns (model_state_dict, optim_state_dict) keyed by canonical FQNs; set_state_dict(model, optimizers, *, model_state_dict, optim_state_dict)',
    chapter: C9,
    anchor: 'sharded-checkpoints-and-resharding',
    source: `${TORCH}, torch/distributed/checkpoint/state_dict.py, get_state_dict and set_state_dict`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/checkpoint/state_dict.py',
  },
  {
    claim:
      'On a failure the agent restarts the worker group (stop, re-rendezvous, start) while restarts remain; current torchrun takes --rdzv-backend and --rdzv_backend alike, 1.13 only the underscore form',
    chapter: C9,
    anchor: 'elastic-launch-and-restarts',
    source: `${TORCH}, torch/distributed/elastic/agent/server/api.py, SimpleElasticAgent._restart_workers and _invoke_run; torch/distributed/run.py get_args_parser (1.13 as installed by Debian python3-torch)`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/elastic/agent/server/api.py',
  },
  {
    claim:
      'torchrun: --max-restarts, --nnodes=MIN:MAX, c10d rendezvous, TORCHELASTIC_RESTART_COUNT',
    chapter: C9,
    anchor: 'elastic-launch-and-restarts',
    source: `${TORCH}, torch/distributed/run.py (module docstring and arguments)`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/run.py',
  },
  {
    claim:
      "419 unexpected interruptions in 54 days on 16,384 H100 GPUs, from every cause (GPUs, network switches and cables, software bugs, host maintenance); GPU issues are 58.7 % of them, so the per-GPU figure the chapter derives is a share of the job's interruption rate, and the GPU-only figure is larger by 1/0.587",
    chapter: C9,
    anchor: 'stragglers-and-failures-at-thousands-of-gpus',
    source:
      'Dubey et al. 2024, "The Llama 3 Herd of Models", §3.3.4 ("GPU issues are the largest category, accounting for 58.7% of all unexpected issues"), Table 5',
    url: 'https://arxiv.org/abs/2407.21783',
  },
  {
    claim:
      "Young's first-order optimal checkpoint interval √(2·C·M), C the checkpoint cost and M the mean time between failures; Daly's higher-order refinement",
    chapter: C9,
    anchor: 'checkpoint-interval-and-goodput',
    source:
      'J. W. Young, "A first order approximation to the optimum checkpoint interval", Communications of the ACM 17(9), 1974, abstract and main result T_opt = √(2·C·T_f); J. T. Daly, "A higher order estimate of the optimum checkpoint interval for restart dumps", Future Generation Computer Systems 22(3), 2006, abstract',
    url: 'https://doi.org/10.1145/361147.361115',
  },
  {
    claim:
      'dcp.async_save first stages the state dict to CPU memory and then saves in a separate thread, so training stops only for the copy',
    chapter: C9,
    anchor: 'checkpoint-interval-and-goodput',
    source: `${TORCH}, torch/distributed/checkpoint/state_dict_saver.py, async_save docstring`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/checkpoint/state_dict_saver.py',
  },
  {
    claim:
      "Flight recorder: TORCH_NCCL_TRACE_BUFFER_SIZE (events in the ring buffer, 0 disables), TORCH_NCCL_DUMP_ON_TIMEOUT (dump on watchdog timeout or exception, needs the buffer), TORCH_NCCL_DEBUG_INFO_TEMP_FILE and _PIPE_FILE, TORCH_NCCL_DESYNC_DEBUG (culprit rank of a desync), TORCH_NCCL_NAN_CHECK; fr_trace.py matches the ranks' dumps",
    chapter: C9,
    anchor: 'finding-a-hang',
    source: `${TORCH}, docs/source/torch_nccl_environment_variables.md; torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp (environment variables); tools/flight_recorder/fr_trace.py`,
    url: 'https://github.com/pytorch/pytorch/blob/main/docs/source/torch_nccl_environment_variables.md',
  },
  {
    claim:
      'Silent data corruption: processors that miscompute without an error, found in production fleets; Llama 3 lists it among its interruption causes',
    chapter: C9,
    anchor: 'silent-data-corruption',
    source:
      'Dixit et al. 2021, "Silent Data Corruptions at Scale" (arXiv:2102.11245), abstract; Hochschild et al. 2021, "Cores that don\'t count" (HotOS), abstract; Dubey et al. 2024, §3.3.4, Table 5',
    url: 'https://arxiv.org/abs/2102.11245',
  },
  {
    claim:
      'torchtitan builds its mesh as ["pp", "dp_replicate", "dp_shard", "cp", "tp"], dropping size-1 dimensions, and shards with FSDP over dp_shard and cp flattened (dp_shard_cp); init_device_mesh numbers ranks row-major, so the last dimension holds consecutive ranks',
    chapter: C9,
    anchor: 'fsdp-on-a-device-mesh-with-tensor-pipeline-and-context-parallelism',
    source:
      'pytorch/torchtitan, torchtitan/distributed/parallel_dims.py, ParallelDims._build_mesh_without_ep; pytorch/pytorch torch/distributed/device_mesh.py, init_device_mesh (torch.arange(math.prod(mesh_shape)).view(mesh_shape))',
    url: 'https://github.com/pytorch/torchtitan/blob/main/torchtitan/distributed/parallel_dims.py',
  },
  {
    claim: 'Local SGD / post-local SGD in PyTorch',
    chapter: C9,
    anchor: 'low-communication-data-parallelism',
    source: `${TORCH}, torch/distributed/optim/post_localSGD_optimizer.py, ddp_comm_hooks/post_localSGD_hook.py (Lin et al. 2020)`,
    url: 'https://github.com/pytorch/pytorch/blob/main/torch/distributed/optim/post_localSGD_optimizer.py',
  },
  {
    claim:
      'DiLoCo: inner AdamW, outer Nesterov momentum on the averaged delta, 8 workers, H = 500, 500× less communication',
    chapter: C9,
    anchor: 'low-communication-data-parallelism',
    source:
      'Douillard et al. 2023, "DiLoCo: Distributed Low-Communication Training of Language Models", abstract and §2 (Algorithm 1)',
    url: 'https://arxiv.org/abs/2311.08105',
  },
];

/** Every claim about PyTorch, NCCL, DeepSpeed or a paper, with the primary source it was checked against. */
export const PRIMARY_SOURCES: PrimaryCitation[] = [
  ...PRIMARY_SOURCES_1_TO_6,
  ...PRIMARY_SOURCES_7_TO_9,
  ...PRIMARY_SOURCES_10,
  ...PRIMARY_SOURCES_SCALE,
];
