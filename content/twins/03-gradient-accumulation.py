"""PyTorch twin of 03-gradient-accumulation.ts: k micro-batches summed locally, one all-reduce, the same gradient as
one step on the whole global batch. (With DDP, wrap the first k − 1 backward passes in `with model.no_sync():`.)

Run: torchrun --nproc_per_node=4 03-gradient-accumulation.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import exponential, js_str, random_normal, say, start, finish

rank, world, device = start()
n, r, k, micro, d = world, rank, 3, 4, 6
global_batch = micro * n * k  # per-rank micro-batch × ranks × accumulation steps
X = random_normal([global_batch, d], 0, 1, seed=31).to(device)
Y = random_normal([global_batch, 1], 0, 1, seed=32).to(device)
W = random_normal([d, 1], 0, 1, seed=33).to(device)


def grad(x, y):
    w = W.clone().requires_grad_()
    F.mse_loss(x @ w, y).backward()
    return w.grad


accumulated = torch.zeros_like(W)
all_reduces = 0
for step in range(k):
    start_row = (step * n + r) * micro  # micro-batch `step` of this rank
    g = grad(X[start_row:start_row + micro], Y[start_row:start_row + micro])
    accumulated += g / k  # scale by 1/k so the result is a mean, not a sum
synced = accumulated.clone()
dist.all_reduce(synced, op=dist.ReduceOp.SUM)
synced /= n
all_reduces += 1

reference = grad(X, Y)  # one device, the whole global batch at once
gap = (synced - reference).abs().max().item()
say(f"rank {r}: {k} micro-batches of {micro} rows, {all_reduces} all-reduce, global batch {global_batch}, gap {exponential(gap, 1)}")
say(f"accumulated gradient matches the full global batch: {js_str(gap < 1e-5)}")
finish()
