"""PyTorch twin of 09-clip-sharded.ts: gradient clipping when each rank holds only a shard of the averaged gradient
(ZeRO-2/3, FSDP). Clipping by the shard's own norm scales each shard by a different factor; clipping by the global
norm, (Σ_ranks ‖g_r‖²)^½ from one all-reduce of one number, matches one device. That is what FSDP1's
FullyShardedDataParallel.clip_grad_norm_ does (torch/distributed/fsdp/fully_sharded_data_parallel.py: local
norm ** p, all_reduce, ** (1/p)); with FSDP2 the gradients are DTensors and one calls torch.nn.utils.clip_grad_norm_
on them (pytorch/pytorch test/distributed/_composable/fsdp/test_fully_shard_clip_grad_norm_.py checks it against a
replicated model). The one-device reference below is torch.nn.utils.clip_grad_norm_ itself, on the whole gradient:
scale by min(1, max_norm / (norm + 1e-6)) (torch/nn/utils/clip_grad.py).

Run: torchrun --nproc_per_node=4 09-clip-sharded.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 2.3 or newer, whose Gloo has reduce_scatter_tensor and all_gather_into_tensor.
"""
import math

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_

from ranks_twin import fixed, js_str, random_normal, say, start, finish

rank, world, device = start()
n, psi, max_norm = world, 4096, 1.0
shard = psi // n
X = random_normal([16, psi], 0, 1, seed=10 + rank).to(device)
Y = random_normal([16, 1], 0, 1, seed=20 + rank).to(device)
w = random_normal([psi], 0, 0.05, seed=1).to(device).requires_grad_()
F.mse_loss(X @ w.reshape(psi, 1), Y).backward()

# Each rank ends backward with only its shard of the averaged gradient, as ZeRO-2 or FSDP leave it.
g_shard = torch.empty(shard, device=device)
dist.reduce_scatter_tensor(g_shard, w.grad, op=dist.ReduceOp.SUM)
g_shard /= n  # Gloo has no AVG: sum, then divide

# Wrong: clip by the norm of the local shard.
local_norm = g_shard.norm().item()
wrong = g_shard * min(1, max_norm / (local_norm + 1e-6))

# Right: total = (Σ_ranks ‖g_r‖²)^½, one all-reduce of one number.
sum_sq = g_shard.square().sum()
dist.all_reduce(sum_sq, op=dist.ReduceOp.SUM)
total_norm = math.sqrt(sum_sq.item())
right = g_shard * min(1, max_norm / (total_norm + 1e-6))

# One device, the whole averaged gradient, clipped by torch.nn.utils.clip_grad_norm_ (which returns the norm).
full = torch.empty(psi, device=device)
dist.all_gather_into_tensor(full, g_shard)
reference = torch.zeros(psi, device=device, requires_grad=True)
reference.grad = full.clone()
full_norm = clip_grad_norm_([reference], max_norm).item()
mine = reference.grad[rank * shard:(rank + 1) * shard]


def max_gap(t):
    """The largest gap to one device's clipped gradient, over every rank."""
    gap = (t - mine).abs().max()
    dist.all_reduce(gap, op=dist.ReduceOp.MAX)
    return gap.item()


wrong_gap, right_gap = max_gap(wrong), max_gap(right)
say(f"rank {rank}: shard norm {fixed(local_norm, 4)}, global norm {fixed(total_norm, 4)} (one device: {fixed(full_norm, 4)})")
say(f"clipping by the shard norm matches one device: {js_str(wrong_gap < 1e-6)}")
say(f"clipping by the all-reduced norm matches one device: {js_str(right_gap < 1e-6)}")
finish()
