"""PyTorch twin of 04-communication-overhead.ts (exercise 3): time forward, backward and the gradient all-reduce of a
small MLP (the all-reduce after a barrier, so a rank's wait for slower ones is printed apart), and compare the
all-reduce with the backward pass, the only phase DDP can hide it behind.

Times: on its page the playground times a simulated cluster (virtual time: two nodes of two H100s, each step charged
as a 7B-parameter model at 4,096 tokens per GPU). This twin measures the machine it runs on: wall time with
time.perf_counter() after dist.barrier().

Run: torchrun --nproc_per_node=4 04-communication-overhead.py   (ranks_twin.py next to this file)
"""
import math
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import fixed, random_normal, say, start, finish

rank, world, device = start()
widths, batch, steps = [256, 512, 512, 10], 32, 4
layers = [random_normal([widths[i], out], 0, 0.05, seed=7 + i).to(device).requires_grad_() for i, out in enumerate(widths[1:])]
x = random_normal([batch, widths[0]], 0, 1, seed=100 + rank).to(device)
labels = torch.tensor([(i + rank) % 10 for i in range(batch)], device=device)


def forward():
    h = x
    for i, w in enumerate(layers):
        h = torch.relu(h @ w) if i < len(layers) - 1 else h @ w
    return h


def synchronize():
    """Kernels run asynchronously on a GPU: wait for them before reading the clock."""
    if device.type == "cuda":
        torch.cuda.synchronize()


totals = {"forward": 0.0, "backward": 0.0, "waiting": 0.0, "all_reduce": 0.0}
for step in range(steps):
    dist.barrier()
    t = time.perf_counter()
    with torch.no_grad():
        forward()
    synchronize()
    t_forward = time.perf_counter() - t
    t = time.perf_counter()
    for w in layers:
        w.grad = None
    F.cross_entropy(forward(), labels).backward()  # forward again + backward
    synchronize()
    t_backward = max(0.0, time.perf_counter() - t - t_forward)
    # Ranks finish backward at different times. Wait for the slowest here, so the timer below measures
    # the all-reduce itself and not a rank idling until its peers arrive.
    t = time.perf_counter()
    dist.barrier()
    t_waiting = time.perf_counter() - t
    t = time.perf_counter()
    works = [dist.all_reduce(w.grad, op=dist.ReduceOp.SUM, async_op=True) for w in layers]  # all in flight at once
    for work in works:
        work.wait()
    for w in layers:
        w.grad /= world
    synchronize()
    t_all_reduce = time.perf_counter() - t
    if step > 0:  # step 0 warms up
        totals["forward"] += t_forward
        totals["backward"] += t_backward
        totals["waiting"] += t_waiting
        totals["all_reduce"] += t_all_reduce
n = steps - 1
f, b, w, c = (totals[k] / n * 1000 for k in ("forward", "backward", "waiting", "all_reduce"))
say(f"rank {rank}: forward {fixed(f, 2)} ms, backward {fixed(b, 2)} ms, all-reduce {fixed(c, 2)} ms "
    f"(after a barrier; {fixed(w, 2)} ms waiting for slower ranks not counted)")
ratio = c / b if b > 0 else math.inf
verdict = "overlap could hide the all-reduce behind backward" if ratio < 1 else "the all-reduce outlasts backward, so overlap cannot hide it all"
say(f"all-reduce/backward ratio: {fixed(ratio, 2)}: {verdict}")
finish()
