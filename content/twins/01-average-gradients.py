"""PyTorch twin of 01-average-gradients.ts: every rank computes the gradient of its shard, one all-reduce averages them.

Run: torchrun --nproc_per_node=4 01-average-gradients.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import fixed, js_str, say, start, finish

rank, world, device = start()
batch, features = 8, 3

# Every rank builds the same data and weights from the same formula, as if loaded from disk.
x = torch.tensor([((i * 7) % 11) / 10 - 0.5 for i in range(batch * features)], device=device).reshape(batch, features)
y = torch.tensor([float((i % 3) - 1) for i in range(batch)], device=device).reshape(batch, 1)
w = torch.tensor([[0.1], [-0.2], [0.3]], device=device)


def mse_grad(xs, ys):
    """Gradient of the mean squared error of y = x·w with respect to w."""
    weights = w.clone().requires_grad_()
    F.mse_loss(xs @ weights, ys).backward()
    return weights.grad


rows = batch // world
if batch % world:
    raise SystemExit(f"pick a world size that divides the batch of {batch}")
start_row = rank * rows
local_grad = mse_grad(x[start_row:start_row + rows], y[start_row:start_row + rows])
say(f"rows {start_row}..{start_row + rows - 1}, local gradient", " ".join(fixed(v, 4) for v in local_grad.flatten().tolist()))

# The one communication of the step. Gloo has no ReduceOp.AVG (NCCL does): sum, then divide by the world size.
averaged = local_grad.clone()
dist.all_reduce(averaged, op=dist.ReduceOp.SUM)
averaged /= world
avg = averaged.flatten().tolist()
say("averaged gradient", " ".join(fixed(v, 4) for v in avg))

# Check against one device computing the gradient of the whole batch.
full = mse_grad(x, y).flatten().tolist()
max_diff = max(abs(a - b) for a, b in zip(full, avg))
say(f"matches the full-batch gradient: {js_str(max_diff < 1e-6)}")
finish()
