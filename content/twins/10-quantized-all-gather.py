"""PyTorch twin of 10-quantized-all-gather.ts: ZeRO++'s quantized weight all-gather (qwZ) and hierarchical
partitioning (hpZ), written out with torch.distributed so the bytes on the wire can be counted.

PyTorch itself has no quantized all-gather: FSDP2 gathers in MixedPrecisionPolicy.param_dtype, and fp8 weights only
through torchao's float8 training (Float8LinearConfig(enable_fsdp_float8_all_gather=True), FSDP2, PyTorch 2.6 or newer
on CUDA GPUs). DeepSpeed turns these on in its ZeRO config: "zero_quantized_weights": true (qwZ, int8 with one scale
per group, deepspeed/runtime/zero/partition_parameters.py CUDAQuantizer), "zero_hpz_partition_size": 8 (hpZ), and
"zero_quantized_gradients": true (qgZ). The quantization below is CUDAQuantizer's symmetric scheme: scale =
max|w| / (2^(bits−1) − 1), q = round(w / scale), torch.round and tf.round both rounding half to even.
Byte counts are what a ring all-gather sends per rank, (N − 1) times the shard, as the playground's runtime counts them.

Times: on its page the playground times a simulated cluster (virtual time, two 100 GbE nodes of two A100s, each
gather charged as a 7e9-parameter model). This twin measures the machine it runs on: wall time with
time.perf_counter() after dist.barrier(); on one machine hpZ's node-local gather is not necessarily the faster.

Run: torchrun --nproc_per_node=4 10-quantized-all-gather.py   (ranks_twin.py next to this file)
Runs on PyTorch 1.13 (CI's) and newer, Gloo or NCCL: it needs only all_gather, new_group and Tensor.view(dtype).
"""
import torch
import torch.distributed as dist

from ranks_twin import say_clock, exponential, finish, fixed, js_str, random_normal, random_uniform, say, start, wall_clock

rank, world, device = start()
N, shard, block = world, 8192, 512
blocks = shard // block
spread = random_uniform([blocks, 1], 0.002, 0.1, seed=40 + rank).to(device)
mine = random_normal([blocks, block], 0, 1, seed=30 + rank).to(device) * spread


def all_gather(t, group=None):
    """Every member's t, concatenated; and the bytes this rank sent, (members − 1) × its tensor."""
    size = dist.get_world_size(group)
    parts = [torch.empty_like(t) for _ in range(size)]
    dist.all_gather(parts, t.contiguous(), group=group)
    return torch.cat([p.reshape(-1) for p in parts]), (size - 1) * t.numel() * t.element_size()


def measure(f):
    dist.barrier()
    t = wall_clock(device)
    out, sent = f()
    return out, sent, wall_clock(device) - t


def gather_bf16(t, group=None):
    out, sent = all_gather(t.reshape(-1).to(torch.bfloat16).view(torch.int32), group)
    return out.view(torch.bfloat16).float(), sent


def gather_quantized(bits, group_size):
    levels = 2 ** (bits - 1) - 1
    w = mine.reshape(shard // group_size, group_size)
    scale = w.abs().amax(dim=1, keepdim=True) / levels
    q = torch.clamp(torch.round(w / scale), -levels, levels).reshape(-1)
    if bits == 8:
        packed = q.to(torch.int8).view(torch.int32)
    else:
        nib = (q + 8).to(torch.int32)
        packed = (nib[0::2] + nib[1::2] * 16).to(torch.uint8).view(torch.int32)
    all_q, sent_q = all_gather(packed)
    all_scales, sent_s = all_gather(scale)
    if bits == 8:
        values = all_q.view(torch.int8).float()
    else:
        b = all_q.view(torch.uint8).to(torch.int32)
        values = torch.stack([(b & 15) - 8, (b >> 4) - 8], dim=1).reshape(-1).float()
    out = (values.reshape(-1, group_size) * all_scales.reshape(-1, 1)).reshape(-1)
    return out, sent_q + sent_s


def ms(s):
    return f"{fixed(s * 1000, 1)} ms"


exact, exact_bytes, exact_s = measure(lambda: all_gather(mine))


def rel_error(t):
    return ((t - exact).norm() / exact.norm()).item()


ways = [
    ("bf16", lambda: gather_bf16(mine)),
    ("int8, one scale per shard", lambda: gather_quantized(8, shard)),
    (f"int8, one scale per {block} (qwZ)", lambda: gather_quantized(8, block)),
    (f"int4, one scale per {block}", lambda: gather_quantized(4, block)),
]
if rank == 0:
    say_clock()
    say(f"fp32: {exact_bytes} bytes sent by this rank, {ms(exact_s)}")
rows = []
for name, gather in ways:
    out, sent, s = measure(gather)
    error = rel_error(out)
    rows.append((name, sent, error))
    if rank == 0:
        say(f"{name}: {sent} bytes ({fixed(sent / exact_bytes, 3)}× fp32), {ms(s)}, relative error {exponential(error, 1)}")
per_shard, per_block = rows[1], rows[2]
say(f"one scale per block: {fixed(per_shard[2] / per_block[2], 1)}× less error for {per_block[1] - per_shard[1]} more bytes")

# hpZ: a secondary shard of each node's bf16 weights; the backward gather runs inside the node only.
gpus_per_node = min(2, N)
node = rank // gpus_per_node
node_groups = [dist.new_group([k * gpus_per_node + i for i in range(gpus_per_node)]) for k in range(N // gpus_per_node)]
node_group = node_groups[node]
bf16_full, _ = gather_bf16(mine)
secondary = bf16_full.reshape(gpus_per_node, -1)[rank % gpus_per_node]
flat, _, flat_s = measure(lambda: gather_bf16(mine))
hpz, _, hpz_s = measure(lambda: gather_bf16(secondary, node_group))
if rank == 0:
    say(f"backward gather in bf16: {ms(flat_s)} across all {N} ranks, {ms(hpz_s)} inside a node of {gpus_per_node} (hpZ), which holds a {secondary.numel() * 2}-byte secondary shard per rank")
say(f"hpZ's backward gather returns the same weights: {js_str(bool((hpz - bf16_full).abs().max().item() == 0))}")
say(f"hpZ's backward gather is faster: {js_str(hpz_s < flat_s)}")
finish()
