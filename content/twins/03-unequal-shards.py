"""PyTorch twin of 03-unequal-shards.ts: with unequal shards, averaging per-rank mean gradients is wrong; weighting
each rank's gradient by |B_r| / |B| before summing is exact.

Run: torchrun --nproc_per_node=4 03-unequal-shards.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import exponential, js_str, random_normal, say, start, finish

rank, world, device = start()
n, r, d, h = world, rank, 5, 8
sizes = [2 * (k + 1) for k in range(n)]
total = sum(sizes)
offset = sum(sizes[:r])

X = random_normal([total, d], 0, 1, seed=21).to(device)
Y = random_normal([total, 1], 0, 1, seed=22).to(device)
W1 = random_normal([d, h], 0, 0.6, seed=23).to(device)
W2 = random_normal([h, 1], 0, 0.6, seed=24).to(device)


def grad_of(x, y):
    """Gradient of the mean squared error over the given rows, for both weight matrices, flattened into one vector."""
    a, b = W1.clone().requires_grad_(), W2.clone().requires_grad_()
    F.mse_loss(torch.relu(x @ a) @ b, y).backward()
    return torch.cat([a.grad.reshape(-1), b.grad.reshape(-1)])


mine = grad_of(X[offset:offset + sizes[r]], Y[offset:offset + sizes[r]])
plain = mine.clone()
dist.all_reduce(plain, op=dist.ReduceOp.SUM)  # all_reduce(SUM) / world_size
plain /= n
weighted = mine * (sizes[r] / total)
dist.all_reduce(weighted, op=dist.ReduceOp.SUM)  # Σ |B_r|/|B| · g_r
full = grad_of(X, Y)  # one device, every row

plain_err = (plain - full).abs().max().item()
weighted_err = (weighted - full).abs().max().item()
if r == 0:
    say(f"shard sizes {'/'.join(str(s) for s in sizes)} of {total} rows")
    say(f"plain average is off by {exponential(plain_err, 2)} (max over entries)")
    say(f"weighted sum is off by {exponential(weighted_err, 2)}")
say(f"rank {r}: weighted all-reduce matches full batch: {js_str(weighted_err < 1e-5)}, plain average does: {js_str(plain_err < 1e-5)}")
finish()
