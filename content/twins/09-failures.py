"""PyTorch twin of 09-failures.ts: when does a job of this size lose a rank, and what does the restart cost? The job
trains two DDP steps to learn its step time; the first interruption is drawn from the rate Llama 3's pre-training saw
(419 unexpected interruptions in 54 days on 16,384 H100s, Dubey et al. 2024, §3.3.4) spread over the GPUs, and falls
on a random rank (the same draw as the playground: tf.randomUniform([2]) with seed 3, rebuilt by
ranks_twin.random_uniform). For several checkpoint intervals it prints what that failure costs (work redone since
the last checkpoint, the collective timeout, the restart) and the first-order goodput.

Times: on its page the playground times a simulated cluster (virtual time: each step charged as Llama 2 7B at 8,192
tokens per GPU on H100 nodes). This twin measures the machine it runs on: wall time with time.perf_counter() after
dist.barrier(), for the toy model, so its step count at the failure differs; every other number is the same
arithmetic. To see a real hang, kill one rank (kill -STOP its PID): the others block in all_reduce until the process
group's timeout.

Run: torchrun --nproc_per_node=4 09-failures.py   (ranks_twin.py next to this file)
"""
import math

import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import fixed, random_normal, random_uniform, say, start, finish, wall_clock

rank, world, device = start()
llama3 = {"gpus": 16_384, "days": 54, "unexpected": 419}
restart_minutes, checkpoint_minutes, intervals_minutes, seed = 10, 2, [10, 30, 60, 120, 240], 3
timeout_minutes = 600 / 60  # the cluster model's collective timeout, PyTorch's default for NCCL
d, rows = 64, 8
X = random_normal([rows, d], 0, 1, seed=1 + rank).to(device)
Y = random_normal([rows, 1], 0, 1, seed=100 + rank).to(device)
W1 = random_normal([d, d], 0, 0.1, seed=5).to(device).requires_grad_()
W2 = random_normal([d, 1], 0, 0.1, seed=6).to(device).requires_grad_()

step_seconds = 0.0
for s in range(2):
    dist.barrier()
    t0 = wall_clock(device)
    W1.grad = W2.grad = None
    F.mse_loss(torch.relu(X @ W1) @ W2, Y).backward()
    for w in (W1, W2):
        dist.all_reduce(w.grad, op=dist.ReduceOp.SUM)  # SUM, then ÷ world: Gloo has no AVG before 2.x
        w.grad /= world
    with torch.no_grad():
        W1 -= 0.01 * W1.grad
        W2 -= 0.01 * W2.grad
    step_seconds = wall_clock(device) - t0
shared = torch.tensor([step_seconds], dtype=torch.float64, device=device)
dist.broadcast(shared, src=0)  # every rank tells rank 0's story
step = shared.item()

gpu_hours_per_interruption = llama3["days"] * 24 * llama3["gpus"] / llama3["unexpected"]
mtbf_hours = gpu_hours_per_interruption / world
u1, u2 = random_uniform([2], 0, 1, seed=seed).tolist()
fail_hours = -mtbf_hours * math.log(1 - u1)
dead_rank = math.floor(u2 * world)
fail_step = math.floor(fail_hours * 3600 / step)


def fmt(h):
    return f"{fixed(h / 24, 1)} days" if h >= 48 else f"{fixed(h, 2)} h"


say(f"step measured on this machine: {fixed(step * 1000, 1)} ms; {world} GPUs lose one about every {fmt(mtbf_hours)} at Llama 3's rate")
say(f"drawn: rank {dead_rank} dies at step {fail_step:,}, after {fmt(fail_hours)} of training; its peers wait {fixed(timeout_minutes, 0)} min for the collective timeout")
young_minutes = math.sqrt(2 * checkpoint_minutes * mtbf_hours * 60)
for tau in intervals_minutes + [young_minutes]:
    lost = math.fmod(fail_hours * 60, tau)  # training since the last checkpoint, redone after the restart
    cost = lost + timeout_minutes + restart_minutes
    goodput = 1 - checkpoint_minutes / tau - (tau / 2 + timeout_minutes + restart_minutes) / (mtbf_hours * 60)
    label = f"τ = {fixed(tau, 0)} min (Young's √(2CM))" if tau == young_minutes else f"τ = {tau} min"
    say(f"checkpoint every {label}: this failure costs {fixed(cost, 1)} min ({fixed(lost, 1)} redone, {fixed(timeout_minutes, 0)} detecting, "
        f"{restart_minutes} restarting); expected goodput {fixed(goodput * 100, 1)} %")
finish()
