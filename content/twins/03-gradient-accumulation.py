"""PyTorch twin of 03-gradient-accumulation.ts: k micro-batches summed locally, one all-reduce, the same gradient as
one step on the whole global batch at 1/k of the traffic; beside it the wasteful way, an all-reduce per micro-batch.
(With DDP, wrap the first k − 1 backward passes in `with model.no_sync():`.)

Run: torchrun --nproc_per_node=4 03-gradient-accumulation.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import exponential, js_str, random_normal, say, start, finish

rank, world, device = start()
n, r, k, micro, d = world, rank, 3, 4, 8
global_batch = micro * n * k  # per-rank micro-batch × ranks × accumulation steps
X = random_normal([global_batch, d], 0, 1, seed=31).to(device)
Y = random_normal([global_batch, 1], 0, 1, seed=32).to(device)
W = random_normal([d, 1], 0, 1, seed=33).to(device)


def grad(x, y):
    w = W.clone().requires_grad_()
    F.mse_loss(x @ w, y).backward()
    return w.grad


def micro_batch(step):
    start_row = (step * n + r) * micro  # micro-batch `step` of this rank
    return grad(X[start_row:start_row + micro], Y[start_row:start_row + micro])


# Neither NCCL nor Gloo reports bytes sent, so count what a ring all-reduce sends per rank, 2(n−1)/n·D
# (nccl-tests PERFORMANCE.md); the playground reads its runtime's own counter instead, so the byte counts differ
# and only their ratio is compared.
sent = 0


def all_reduce_avg(t):
    global sent
    out = t.clone()
    dist.all_reduce(out, op=dist.ReduceOp.SUM)
    sent += 2 * (n - 1) * out.numel() * 4 // n
    return out / n


# The wasteful way: all-reduce after every micro-batch. Same result, k all-reduces.
before = sent
eager, eager_calls = torch.zeros_like(W), 0
for step in range(k):
    eager += all_reduce_avg(micro_batch(step)) / k
    eager_calls += 1
eager_bytes = sent - before

# Accumulate locally (scaled by 1/k so the result is a mean, not a sum), then all-reduce once.
before = sent
accumulated, once_calls = torch.zeros_like(W), 0
for step in range(k):
    accumulated += micro_batch(step) / k
synced = all_reduce_avg(accumulated)
once_calls += 1
once_bytes = sent - before

reference = grad(X, Y)  # one device, the whole global batch at once
gap = (synced - reference).abs().max().item()
eager_gap = (eager - reference).abs().max().item()
say(f"rank {r}: {k} micro-batches of {micro} rows, global batch {global_batch}, gap {exponential(gap, 1)} "
    f"(per-micro-batch all-reduce: {exponential(eager_gap, 1)})")
say(f"rank {r}: all-reduce calls {eager_calls} → {once_calls}; bytes sent by all-reduce (counted as a ring sends them) {eager_bytes} → {once_bytes}")
say(f"accumulated gradient matches the full global batch: {js_str(gap < 1e-5 and eager_gap < 1e-5)}")
# On one rank nothing is sent at all, so there is nothing to divide.
fewer = eager_bytes == 0 and once_bytes == 0 if n == 1 else eager_bytes == k * once_bytes and once_bytes > 0
say(f"accumulating sends {k}× fewer all-reduce bytes: {js_str(fewer)}")
finish()
