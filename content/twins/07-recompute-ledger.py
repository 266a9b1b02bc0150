"""PyTorch twin of 07-recompute-ledger.ts: a tiny stack of transformer blocks trained one step two ways: keeping every
activation for backward, and full recomputation with torch.utils.checkpoint (keep each block's input, replay its
forward during backward; use_reentrant=False, the variant torch/utils/checkpoint.py recommends, with its early stop
turned off by set_checkpoint_early_stop(False) so that every block is replayed whole). Each rank measures
the peak bytes the step added (torch.cuda.max_memory_allocated on GPUs; on CPUs the profiler's memory records, summed
after each top-level operation as tf.profile snapshots after each kernel) and counts the matmul FLOPs it ran.
The two frameworks allocate differently, so the peaks differ from the playground's; the FLOP counts are the same.

Run: torchrun --nproc_per_node=4 07-recompute-ledger.py   (ranks_twin.py next to this file)
"""
import contextlib
import math

import torch
import torch.distributed as dist
import torch.nn.functional as F
import torch.utils.checkpoint
from torch.profiler import profile
from torch.utils.checkpoint import checkpoint

from ranks_twin import fixed, js_str, random_normal, say, start, finish

rank, world, device = start()
s, b, h, heads, layers = 32, 2, 32, 4, 4  # sequence, micro-batch, hidden, heads
dh = h // heads
flops = 0  # matmul FLOPs actually executed, 2 per multiply-add


def matmul(x, w):
    global flops
    out = x @ w
    flops += 2 * x.numel() // x.shape[-1] * w.shape[0] * w.shape[1]  # counted once it has run
    return out


def init(seed):
    return [random_normal(shape, 0, 0.1, seed=seed + i).to(device) for i, shape in enumerate([[h, 3 * h], [h, h], [h, 4 * h], [4 * h, h]])]


def norm(x):
    return F.layer_norm(x, (h,), eps=1e-5)


def block(x, wqkv, wo, w1, w2):
    """One pre-norm block: x + attention(LN(x)), then + MLP(LN(·)) with a 4h tanh layer."""
    global flops
    qkv = matmul(norm(x), wqkv)  # [b, s, 3h]
    q, k, v = (qkv[:, :, i * h:(i + 1) * h].reshape(b, s, heads, dh).transpose(1, 2) for i in range(3))
    flops += 2 * 2 * b * heads * s * s * dh  # QKᵀ and scores·V
    scores = (q @ k.transpose(-1, -2) / math.sqrt(dh)).softmax(-1)  # [b, heads, s, s]: the 5as²b term
    y = x + matmul((scores @ v).transpose(1, 2).reshape(b, s, h), wo)
    return y + matmul(matmul(norm(y), w1).tanh(), w2)


params = [[p.requires_grad_() for p in init(100 + 10 * l)] for l in range(layers)]  # same weights on every rank
flat_params = [p for ps in params for p in ps]
x0 = random_normal([b, s, h], 0, 1, seed=7 + rank).to(device)  # each rank's own micro-batch


def peak_of(step):
    """Peak bytes the step adds on top of what was already held."""
    if device.type == "cuda":
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        step()
        return torch.cuda.max_memory_allocated() - before
    with profile(profile_memory=True) as prof:
        step()
    held = peak = 0
    for e in sorted((e for e in prof.events() if e.cpu_parent is None), key=lambda e: e.time_range.start):
        held += e.cpu_memory_usage  # what the operation (and everything inside it) allocated minus what it freed
        peak = max(peak, held)
    return peak


# 1. Keep everything: autograd holds every intermediate of every block until backward is done.
flops = 0
keep_grads = []


def keep_step():
    x = x0
    for p in params:
        x = block(x, *p)
    keep_grads[:] = torch.autograd.grad(x.square().mean(), flat_params)


keep_peak = peak_of(keep_step)
keep_flops = flops
dist.barrier()  # keep the ranks in step between the two long, purely local phases

# 2. Full recomputation: checkpoint keeps only each block's input and replays its forward during backward.
flops = 0
recompute_grads = []
kept = 0


def recompute_step():
    global kept
    # Full recomputation, as in the playground: PyTorch 2.x's non-reentrant checkpoint stops a replay once it has every
    # tensor backward needs (early stop, on by default, read while forward runs), which can leave a block's end unreplayed.
    # torch 1.13 has no early stop.
    no_early_stop = getattr(torch.utils.checkpoint, "set_checkpoint_early_stop", None)
    with no_early_stop(False) if no_early_stop else contextlib.nullcontext():
        x = x0
        for p in params:
            kept += x.numel() * x.element_size()  # the block boundary checkpoint keeps
            x = checkpoint(block, x, *p, use_reentrant=False)
    recompute_grads[:] = torch.autograd.grad(x.square().mean(), flat_params)


recompute_peak = peak_of(recompute_step)
recompute_flops = flops

# Data parallelism does not touch any of this: the gradients are averaged as always.
g_keep = torch.cat([g.reshape(-1) for g in keep_grads])
g_re = torch.cat([g.reshape(-1) for g in recompute_grads])
avg = g_re.clone()
dist.all_reduce(avg, op=dist.ReduceOp.SUM)  # Gloo has no AVG: sum, then divide
avg /= world
gap = (g_keep - g_re).abs().max().item()


def kib(n):
    return f"{fixed(n / 1024, 0)} KiB"


say(f"block: s={s} b={b} h={h} a={heads}, {layers} layers; fp32, so 4 bytes per activation")
say(f"keep all activations:  peak {kib(keep_peak)}, forward matmul FLOPs {fixed(keep_flops / 1e6, 2)} M")
say(f"full recomputation:    peak {kib(recompute_peak)}, forward matmul FLOPs {fixed(recompute_flops / 1e6, 2)} M (block boundaries kept: {kib(kept)})")
say(f"recomputation holds less: {js_str(recompute_peak < keep_peak)}; runs the forward twice: {js_str(recompute_flops == 2 * keep_flops)}")
say(f"same gradients either way: {js_str(gap < 1e-5)}; averaged over {world} ranks: {js_str(avg.numel() == g_keep.numel())}")
finish()
