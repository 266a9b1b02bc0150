"""PyTorch twin of 04-manual-ddp.ts (exercise 1): data parallelism by hand. Broadcast rank 0's weights, all-reduce
the gradients, and reach the same weights as one device training on the whole batch.

Run: torchrun --nproc_per_node=4 04-manual-ddp.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import exponential, js_str, say, start, finish

rank, world, device = start()
features, rows_per_rank, steps, lr = 8, 4, 5, 0.1
rows = rows_per_rank * world

# A deterministic dataset every rank can rebuild: the playground's generator, in floats as JavaScript computes it.
seed = 12345.0


def rand():
    global seed
    seed = (seed * 1103515245.0 + 12345.0) % 2.0**31
    return seed / 2.0**31 - 0.5


X = torch.tensor([rand() for _ in range(rows * features)], device=device).reshape(rows, features)
y = torch.tensor([rand() for _ in range(rows)], device=device).reshape(rows, 1)

# Each rank starts from different weights on purpose: the broadcast is what makes them equal.
seed = 1000.0 + rank
w = torch.tensor([rand() for _ in range(features)], device=device).reshape(features, 1)
dist.broadcast(w, src=0)
w0 = w.clone()


def grad(xb, yb, weights):
    weights = weights.clone().requires_grad_()
    F.mse_loss(xb @ weights, yb).backward()
    return weights.grad


my_x = X[rank * rows_per_rank:(rank + 1) * rows_per_rank]
my_y = y[rank * rows_per_rank:(rank + 1) * rows_per_rank]
for _ in range(steps):
    g = grad(my_x, my_y, w)
    dist.all_reduce(g, op=dist.ReduceOp.SUM)  # equal shards: the mean of shard means is exact
    w -= lr * (g / world)

# The single-device reference: the same 5 steps on the full batch, computed locally.
ref = w0
for _ in range(steps):
    ref = ref - lr * grad(X, y, ref)
diff = (w - ref).abs().max().item()
say(f"rank {rank}: max |w_ddp - w_single| = {exponential(diff, 2)}")
say(f"matches single device: {js_str(diff < 1e-5)}")
finish()
