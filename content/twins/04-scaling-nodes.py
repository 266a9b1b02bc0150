"""PyTorch twin of 04-scaling-nodes.ts (exercise 5): weak scaling from 1 GPU to the whole job. The first k ranks
compute their gradients on a fixed batch per GPU and all-reduce them in a group of k (after backward, no overlap).
Groups that span two nodes all-reduce over the network instead of NVLink. The averaged gradients are the same as
the playground's: their norms agree to float32 rounding.

Times: on its page the playground times a simulated cluster (virtual time: two nodes of two A100s joined by
100 GbE, each step charged as a 7B model at 4,096 tokens per GPU). This twin measures the machine it runs on:
wall time with time.perf_counter() after dist.barrier(), and throughput in this program's own rows per second.
It learns the node size from torchrun (LOCAL_WORLD_SIZE), so run it on two nodes to see the network's cost.

Run: torchrun --nproc_per_node=4 04-scaling-nodes.py   (ranks_twin.py next to this file)
"""
import math
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import fixed, js_str, random_normal, say, say_clock, start, finish, wall_clock

rank, world, device = start()
d, h, rows, steps = 256, 512, 16, 2
X = random_normal([rows, d], 0, 1, seed=1 + rank).to(device)
Y = random_normal([rows, 1], 0, 1, seed=100 + rank).to(device)
W1 = random_normal([d, h], 0, 0.05, seed=5).to(device).requires_grad_()
W2 = random_normal([h, 1], 0, 0.05, seed=6).to(device).requires_grad_()
gpus_per_node = int(os.environ.get("LOCAL_WORLD_SIZE", world))  # torchrun's processes on this node

sizes = [k for k in (1, 2, 4, 8, 16) if k < world] + [world]
step_seconds, grad_norms = [], []
for k in sizes:
    # Every rank makes every group, in the same order, as torch.distributed.new_group requires.
    group = dist.new_group(list(range(k)))
    seconds, norm = 0.0, 0.0
    if rank < k:
        t0 = wall_clock(device)
        for _ in range(steps):
            W1.grad = W2.grad = None
            F.mse_loss(torch.relu(X @ W1) @ W2, Y).backward()
            for w in (W1, W2):
                dist.all_reduce(w.grad, op=dist.ReduceOp.SUM, group=group)  # SUM, then ÷ k: Gloo has no AVG before 2.x
                w.grad /= k
        seconds = (wall_clock(device) - t0) / steps
        # The group's averaged gradient, read after the timing: the numbers this weak scaling moves.
        norm = math.sqrt(sum(w.grad.double().square().sum().item() for w in (W1, W2)))
    step_seconds.append(seconds)
    grad_norms.append(norm)
    dist.barrier()  # the next size starts together

# Rank 0 was in every group: its times are the ones to report, on every rank.
times = torch.tensor(step_seconds, dtype=torch.float64, device=device)
dist.broadcast(times, src=0)
times = times.tolist()


def efficiency(i):
    return times[0] / times[i]


if rank == 0:
    say_clock()
    for i, k in enumerate(sizes):
        nodes = math.ceil(k / gpus_per_node)
        gpus = "GPU " if k == 1 else "GPUs"
        node_word = "node " if nodes == 1 else "nodes"
        say(f"{k:>2} {gpus} on {nodes} {node_word}: step {fixed(times[i] * 1000, 1)} ms, "
            f"{round(k * rows / times[i]):,} rows/s, scaling efficiency {fixed(efficiency(i) * 100, 0)} %")
    norms = ", ".join(f"{k} GPU{'' if k == 1 else 's'} {fixed(n, 4)}" for k, n in zip(sizes, grad_norms))
    say(f"norm of the averaged gradient: {norms}")
one_node = len([k for k in sizes if k <= gpus_per_node]) - 1
last = len(sizes) - 1
say(f"efficiency inside one node {fixed(efficiency(one_node) * 100, 0)} %, on the whole cluster {fixed(efficiency(last) * 100, 0)} %")
say(f"leaving the node costs efficiency: {js_str(efficiency(last) < efficiency(one_node))}")
finish()
