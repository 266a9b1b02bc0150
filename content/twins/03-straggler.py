"""PyTorch twin of 03-straggler.ts: a straggler in synchronous data parallelism. Every rank computes its gradient, then
all-reduces it; the all-reduce cannot finish before the slowest rank arrives, so every rank's step takes as long as
the straggler's. Same data, weights and updates as the playground: the losses agree to float32 rounding.

Times: on its page the playground times a simulated cluster (virtual time: four H100s, rank 3's kernels charged
twice as slow). This twin measures the machine it runs on: wall time with time.perf_counter() after dist.barrier().
To make rank 3 a straggler on real hardware it computes its gradient SLOWDOWN times and keeps the last result.

Run: torchrun --nproc_per_node=4 03-straggler.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import fixed, js_str, random_normal, say, say_clock, start, finish, wall_clock

rank, world, device = start()
d, h, rows, steps = 256, 512, 32, 3
SLOW_RANK, SLOWDOWN = 3, 2  # the page's straggler: rank 3 at half speed (absent below 4 ranks)
X = random_normal([rows, d], 0, 1, seed=1 + rank).to(device)
Y = random_normal([rows, 1], 0, 1, seed=100 + rank).to(device)
W1 = random_normal([d, h], 0, 0.05, seed=5).to(device).requires_grad_()
W2 = random_normal([h, 1], 0, 0.05, seed=6).to(device).requires_grad_()


def ms(seconds):
    return f"{fixed(seconds * 1000, 1)} ms"


say_clock()
computing = stepping = 0.0
losses = []
dist.barrier()  # start together: each rank's clock then measures the same steps
for _ in range(steps):
    t0 = wall_clock(device)
    for _ in range(SLOWDOWN if rank == SLOW_RANK else 1):
        W1.grad = W2.grad = None
        loss = F.mse_loss(torch.relu(X @ W1) @ W2, Y)
        loss.backward()
    t1 = wall_clock(device)
    for w in (W1, W2):
        dist.all_reduce(w.grad, op=dist.ReduceOp.SUM)  # SUM, then ÷ world: Gloo has no AVG before PyTorch 2.x
        with torch.no_grad():
            w -= 0.01 * (w.grad / world)
    t2 = wall_clock(device)
    losses.append(loss.item())
    computing += t1 - t0
    stepping += t2 - t0
compute, step = computing / steps, stepping / steps
say(f"rank {rank}: computes {ms(compute)} per step, then waits {ms(step - compute)} in the all-reduce; step {ms(step)}")


def across(op):
    """Every rank learns the slowest or fastest compute time (a tiny all-reduce, after the timing)."""
    t = torch.tensor([compute], dtype=torch.float64, device=device)
    dist.all_reduce(t, op=op)
    return t.item()


slowest, fastest = across(dist.ReduceOp.MAX), across(dist.ReduceOp.MIN)
say(f"the slowest rank computes {fixed(slowest / fastest, 2)}× as long as the fastest")
say(f"every step lasts at least the slowest rank's compute: {js_str(step >= slowest * 0.999)}")
say(f"rank {rank}: loss {', '.join(fixed(v, 4) for v in losses)} over {steps} steps")
finish()
