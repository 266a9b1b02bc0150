"""PyTorch twin of 03-scaling-throughput.ts: weak scaling. Every rank trains on its own fixed batch and all-reduces
the gradients each step; rank 0 reports samples per second for the whole world.

Run: torchrun --nproc_per_node=4 03-scaling-throughput.py   (ranks_twin.py next to this file)
"""
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import fixed, random_normal, say, start, finish

rank, world, device = start()
batch_per_rank, d, h, steps = 64, 128, 256, 6
X = random_normal([batch_per_rank, d], 0, 1, seed=rank + 1).to(device)
Y = random_normal([batch_per_rank, 1], 0, 1, seed=rank + 100).to(device)
W1 = random_normal([d, h], 0, 0.1, seed=5).to(device).requires_grad_()
W2 = random_normal([h, 1], 0, 0.1, seed=6).to(device).requires_grad_()


def train_step():
    W1.grad = W2.grad = None
    F.mse_loss(torch.relu(X @ W1) @ W2, Y).backward()
    flat = torch.cat([W1.grad.reshape(-1), W2.grad.reshape(-1)])
    dist.all_reduce(flat, op=dist.ReduceOp.SUM)  # one flat buffer, as DDP's buckets are
    flat /= world
    with torch.no_grad():
        W1.sub_(0.01 * flat[: d * h].reshape(d, h))
        W2.sub_(0.01 * flat[d * h:].reshape(h, 1))


train_step()  # warm-up
dist.barrier()
if device.type == "cuda":
    torch.cuda.synchronize()
t0 = time.perf_counter()
for _ in range(steps):
    train_step()
if device.type == "cuda":
    torch.cuda.synchronize()
dist.barrier()
seconds = time.perf_counter() - t0
throughput = steps * batch_per_rank * world / seconds
if rank == 0:
    say(f"throughput: {fixed(throughput, 1)} samples/s on {world} ranks")
finish()
