/** Chapters 8–9's scale playgrounds: claims and the primary sources they were checked against on 2026-11-27. */
import type { PrimaryCitation } from './source-map';

const C9 = '09-operating-at-scale.mdx';
const TORCH = 'pytorch/pytorch';

export const PRIMARY_SOURCES_SCALE: PrimaryCitation[] = [
  {
    claim:
      'GPT-2 small: 12 layers, 12 heads, width 768, vocabulary 50,257, context 1,024, biases, the output layer tied to the token embedding: 124,439,808 parameters (src/lib/figures/scale-step.ts counts them from this shape)',
    chapter: C9,
    anchor: 'one-step-from-one-node-to-the-whole-cluster',
    source:
      'karpathy/nanoGPT, model.py, GPT.from_pretrained ("gpt2": n_layer=12, n_head=12, n_embd=768; vocab_size 50257, block_size 1024, bias True) and GPT.__init__ (weight tying: self.transformer.wte.weight = self.lm_head.weight)',
    url: 'https://github.com/karpathy/nanoGPT/blob/master/model.py',
  },
  {
    claim:
      "FSDP2 shards each parameter on dim 0 with torch.chunk and pads every rank's shard to the first chunk's size, so the all-gather's inputs are equal; the playground pads each unit's flattened parameters (not each parameter's dim 0) to a multiple of the group size, for the same reason: equal shards for the all-gather",
    chapter: C9,
    anchor: 'one-step-from-one-node-to-the-whole-cluster',
    source: `${TORCH}, torch/distributed/fsdp/_fully_shard/_fsdp_param.py, FSDPParam._init_sharded_param ("0th always padded", "Pre-pad the sharded parameter to avoid padding before all-gather")`,
    url: `https://github.com/${TORCH}/blob/main/torch/distributed/fsdp/_fully_shard/_fsdp_param.py`,
  },
  {
    claim:
      "DistributedDataParallel takes a process_group (the twin's sub-groups of 8, 16, … ranks) and averages the gradients over that group's ranks",
    chapter: C9,
    anchor: 'one-step-from-one-node-to-the-whole-cluster',
    source: `${TORCH}, torch/nn/parallel/distributed.py, DistributedDataParallel (process_group argument); torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py, allreduce_hook (divides by the group's size)`,
    url: `https://github.com/${TORCH}/blob/main/torch/nn/parallel/distributed.py`,
  },
  {
    claim:
      'The expected maximum of N independent exponential delays of mean μ is μ(1 + 1/2 + … + 1/N) = μ·H_N: the spacings of exponential order statistics are independent exponentials of means μ/N, μ/(N − 1), …, μ (src/lib/figures/stragglers.ts; its test integrates E[max] directly)',
    chapter: C9,
    anchor: 'stragglers-and-failures-at-thousands-of-gpus',
    source:
      'A. Rényi, "On the theory of order statistics", Acta Mathematica Academiae Scientiarum Hungaricae 4 (1953), pp. 191–231: E_(k) = E_1/n + … + E_k/(n − k + 1) in distribution (also B. Epstein and M. Sobel, "Life testing", JASA 48 (1953)); restated with its proof in D. Chafaï, "Back to basics – Order statistics of exponential distribution" (2014), section "The identity"',
    url: 'https://doi.org/10.1007/BF02127580',
  },
  {
    claim:
      'Temporary high-latency episodes, unimportant in moderate-size systems, come to dominate overall performance at large scale when a request waits for many servers',
    chapter: C9,
    anchor: 'stragglers-and-failures-at-thousands-of-gpus',
    source:
      'J. Dean and L. A. Barroso, "The Tail at Scale", Communications of the ACM 56(2), February 2013, pp. 74–80, abstract as research.google publishes it ("Temporary high latency episodes which are unimportant in moderate size systems may come to dominate overall service performance at large scale"; the chapter quotes this wording)',
    url: 'https://research.google/pubs/the-tail-at-scale/',
  },
  {
    claim:
      'fully_shard with a 1-D mesh shards parameters across it (FSDP, placement (Shard(0),)); with a 2-D mesh it shards across the 1st dimension and replicates across the 0th (HSDP, (Replicate(), Shard(0)))',
    chapter: C9,
    anchor: 'hsdp-shard-inside-a-node-replicate-across-nodes',
    source: `${TORCH}, torch/distributed/fsdp/_fully_shard/_fully_shard.py, fully_shard docstring (mesh argument)`,
    url: `https://github.com/${TORCH}/blob/main/torch/distributed/fsdp/_fully_shard/_fully_shard.py`,
  },
  {
    claim:
      'Current PyTorch records and dumps by default: ProcessGroupNCCL reads TORCH_NCCL_TRACE_BUFFER_SIZE with a default of 2,000 entries and TORCH_NCCL_DUMP_ON_TIMEOUT with a default of true; older releases (the ncclTraceBufferSize_ field) defaulted to 0 and false',
    chapter: C9,
    anchor: 'finding-a-hang',
    source: `${TORCH}, torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp, ProcessGroupNCCL::ProcessGroupNCCL (traceBufferSize_ = getCvarInt(TORCH_NCCL_TRACE_BUFFER_SIZE, 2000); dumpOnTimeoutOrEx_ = getCvarBool(TORCH_NCCL_DUMP_ON_TIMEOUT, true))`,
    url: `https://github.com/${TORCH}/blob/main/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp`,
  },
];
