"""PyTorch twin of 04-ddp-overlap.ts (exercise 4): DDP with and without overlap, on the same model and batch.
With overlap (DDP's only mode) each bucket's all-reduce is launched from autograd hooks as soon as its gradients
exist; without it, the backward runs under no_sync() and every bucket is all-reduced after it, as the playground's
overlap: false does. Both train the same: the losses agree with the playground's to float32 rounding.

Times: on its page the playground times a simulated cluster (virtual time, each step charged as a 7B-parameter
model on four A100s). This twin measures the machine it runs on: wall time with time.perf_counter() after
dist.barrier(). On CPUs Gloo runs the all-reduces on its own threads; on GPUs NCCL runs them on a separate stream.

Run: torchrun --nproc_per_node=4 04-ddp-overlap.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from ranks_twin import fixed, js_str, mlp, random_normal, say, say_clock, start, finish, wall_clock

rank, world, device = start()
widths, rows, steps = [64, 128, 128, 128, 128, 64], 8, 3
x = random_normal([rows, widths[0]], 0, 1, seed=1 + rank).to(device)
y = random_normal([rows, widths[-1]], 0, 1, seed=100 + rank).to(device)
bucket_cap_mb = 0.05  # about one layer per bucket (this small model's real bytes)


def after_backward_buckets(model):
    """Parameters in reverse registration order (the order backward produces their gradients), packed into buckets
    closed once they reach bucket_cap_mb, as compute_bucket_assignment_by_size in DDP's reducer.cpp closes them."""
    buckets, current, size = [], [], 0
    for p in reversed(list(model.parameters())):
        current.append(p)
        size += p.numel() * p.element_size()
        if size >= bucket_cap_mb * 1024 * 1024:
            buckets.append(current)
            current, size = [], 0
    return buckets + ([current] if current else [])


def measure(overlap):
    """Mean step time, forward + backward alone (under no_sync: no all-reduce at all), and the last step's loss."""
    ddp = DistributedDataParallel(mlp(widths, 1, device), bucket_cap_mb=bucket_cap_mb)
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.01)
    buckets = after_backward_buckets(ddp.module)

    def train_step():
        optimizer.zero_grad()
        if overlap:
            loss = F.mse_loss(ddp(x), y)
            loss.backward()  # buckets all-reduce (averaged) while backward runs
        else:
            with ddp.no_sync():
                loss = F.mse_loss(ddp(x), y)
                loss.backward()
            for bucket in buckets:
                flat = torch.cat([p.grad.reshape(-1) for p in bucket])
                dist.all_reduce(flat, op=dist.ReduceOp.SUM)
                flat /= world
                offset = 0
                for p in bucket:
                    p.grad.copy_(flat[offset:offset + p.numel()].reshape(p.shape))
                    offset += p.numel()
        optimizer.step()
        return loss.item()

    train_step()  # the first step rebuilds DDP's buckets in gradient-arrival order
    dist.barrier()
    t = wall_clock(device)
    for _ in range(steps):
        loss = train_step()
    step = (wall_clock(device) - t) / steps
    t = wall_clock(device)
    with ddp.no_sync():
        F.mse_loss(ddp(x), y).backward()
    compute = wall_clock(device) - t
    return step, compute, loss


def ms(seconds):
    return f"{fixed(seconds * 1000, 1)} ms"


off = measure(False)
on = measure(True)
if rank == 0:
    say_clock()
    say(f"forward + backward alone (noSync): {ms(on[1])}")
    say(f"overlap off: step {ms(off[0])}")
    say(f"overlap on:  step {ms(on[0])}")
say(f"overlap saves {ms(off[0] - on[0])} per step")
say(f"overlap shortens the step: {js_str(on[0] < off[0])}")
# Overlap changes when the bytes move, not what they add up to: the same training either way.
say(f"rank {rank}: loss at step {steps + 1} {fixed(off[2], 4)} with overlap off, {fixed(on[2], 4)} with overlap on")
finish()
