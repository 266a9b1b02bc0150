"""PyTorch twin of 10-local-sgd.ts: the same 48 SGD steps synchronized every step, by local SGD (average the weights
every H steps) and by DiLoCo (average the weights' change every H steps, apply it with an outer Nesterov step).

PyTorch ships local SGD as post-local SGD: DDP with ddp_comm_hooks.post_localSGD_hook.post_localSGD_hook (PostLocalSGDState,
which after start_localSGD_iter still all-reduces gradients inside a subgroup, by default each node) and
torch.distributed.optim.PostLocalSGDOptimizer with model_averaging.averagers.PeriodicModelAverager(period=H), which
averages the parameters across all ranks every H steps. This twin writes the all-ranks case out with all_reduce so
the bytes can be counted. DiLoCo (Douillard et al. 2023) is not in core PyTorch.
Its outer step here is torch.optim.SGD(nesterov=True)'s update: v = μv + Δ; θ −= lr·(Δ + μv).
Byte counts are what a ring all-reduce sends per rank, 2(N − 1)/N of the tensor, as the playground's runtime counts them.

Times: on its page the playground times a simulated cluster (virtual time, two 100 GbE nodes of two A100s, each
step charged as a 1e9-parameter model on 16,384 tokens per GPU). This twin measures the machine it runs on: wall
time with time.perf_counter() after dist.barrier().

Run: torchrun --nproc_per_node=4 10-local-sgd.py   (ranks_twin.py next to this file)
Runs on PyTorch 1.13 (CI's) and newer, Gloo or NCCL: it needs only all_reduce.
"""
import torch
import torch.distributed as dist

from ranks_twin import say_clock, finish, fixed, js_str, random_normal, say, start, wall_clock

rank, world, device = start()
N, d, out, rows, steps, H, lr, outer_lr, momentum = world, 32, 8, 64, 48, 8, 0.05, 0.7, 0.9
X = random_normal([rows, d], 0, 1, seed=50 + rank).to(device)
teacher = random_normal([d, out], 0, 1, seed=60).to(device) + random_normal([d, out], 0, 0.5, seed=70 + rank).to(device)
Y = X @ teacher
W0 = torch.zeros(d, out, device=device)


def gradient(W):
    return X.t() @ (X @ W - Y) * (2 / (rows * out))


def all_reduce_avg(t):
    """Average over ranks; returns it and the bytes a ring sends per rank."""
    s = t.clone()
    dist.all_reduce(s, op=dist.ReduceOp.SUM)
    return s / N, 2 * (N - 1) * (t.numel() // N) * 4


def global_loss(W):
    return all_reduce_avg((X @ W - Y).square().mean())[0].item()


def train(mode):
    dist.barrier()
    t, sent = wall_clock(device), 0
    W, outer, velocity = W0.clone(), W0.clone(), torch.zeros_like(W0)
    for step in range(1, steps + 1):
        g = gradient(W)
        if mode == "every step":
            g, b = all_reduce_avg(g)
            sent += b
        W = W - g * lr
        if mode == "every step" or step % H != 0:
            continue
        if mode == "local SGD":
            W, b = all_reduce_avg(W)
        else:
            delta, b = all_reduce_avg(outer - W)
            velocity = velocity * momentum + delta
            outer = outer - (delta + velocity * momentum) * outer_lr
            W = outer.clone()
        sent += b
    return W, sent, wall_clock(device) - t


runs = []
for mode in ["every step", "local SGD", "DiLoCo"]:
    W, sent, s = train(mode)
    runs.append((mode, sent, s, global_loss(W)))
sync, local, diloco = runs
start_loss = global_loss(W0)
if rank == 0:
    say_clock()
    say(f"loss at the start: {fixed(start_loss, 3)}")
    for mode, sent, s, loss in runs:
        say(f"{mode}: {sent} bytes sent by this rank, {fixed(s * 1000, 1)} ms, loss after {steps} steps {fixed(loss, 3)}")
say(f"H = {H}: local SGD and DiLoCo send {js_str(sync[1] / local[1])}× and {js_str(sync[1] / diloco[1])}× fewer bytes")
say(f"synchronizing every {H} steps is faster: {js_str(local[2] < sync[2] and diloco[2] < sync[2])}")
finish()
