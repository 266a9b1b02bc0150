"""PyTorch twin of 08-critical-batch.ts: the critical batch, measured. Groups of 1, 2, 4, … ranks (dist.new_group)
train the same linear model with data-parallel SGD, each rank on its own 4 examples a step, so a group of N ranks
steps with a global batch of 4N and a learning rate scaled linearly with it (Goyal et al.), up to 1/λ_max. Each
group trains until the loss reaches the same target and counts its steps. Every step's all-reduce also carries each
rank's squared gradient norm, so the whole job measures the gradient noise scale B_simple = tr(Σ)/|G|² from two batch
sizes (McCandlish et al. 2018, Appendix A.1): one rank's 4 examples and the job's.

The rows are the playground's: the same counter-based hash (its uniform(), rebuilt here with 32-bit arithmetic) and
Box–Muller, so both sides train on the same examples and count the same steps.

Times: on its page the playground times a simulated cluster (virtual time, every step charged as GPT-3 Small, up to
1,024 GPUs). This twin measures the machine it runs on: wall time with time.perf_counter() after dist.barrier(), so
its time to target is this CPU's, not a GPU's. CI runs it at 2 ranks.

Run: torchrun --nproc_per_node=4 08-critical-batch.py   (ranks_twin.py next to this file)
"""
import math

import torch
import torch.distributed as dist

from ranks_twin import fixed, say, start, finish, wall_clock

rank, world, device = start()
d, per_rank, noise, conditioning, base_lr, target_fraction, measured = 16, 4, 2, 100, 0.004, 0.05, 1024
M32 = 0xFFFFFFFF

h = [conditioning ** (-i / (d - 1)) for i in range(d)]
max_lr = 1 / (2 * max(h))  # half the stability limit 2/λ_max


def excess(w):
    return sum(h[i] * (w[i] - 1) ** 2 for i in range(d))


target = target_fraction * excess([0.0] * d)


def imul(a, b):
    """Math.imul on uint32 bit patterns: the low 32 bits of the product."""
    return (a * b) & M32


def uniform(j, c, stream):
    x = imul((j & M32) ^ 0x9E3779B9, 0x85EBCA6B) ^ imul((c + 0x632BE5AB) & M32, 0xC2B2AE35)
    x ^= imul((stream + 0x27D4EB2F) & M32, 0x165667B1)
    x = imul(x ^ (x >> 16), 0x7FEB352D)
    x = imul(x ^ (x >> 15), 0x846CA68B)
    return ((x ^ (x >> 16)) + 0.5) / 2**32


def normal(j, c, stream):
    return math.sqrt(-2 * math.log(uniform(j, 2 * c, stream))) * math.cos(2 * math.pi * uniform(j, 2 * c + 1, stream))


def rows(first, stream):
    x, y = [], []
    for e in range(per_rank):
        row = [math.sqrt(h[i]) * normal(first + e, i, stream) for i in range(d)]
        x.append(row)
        y.append(sum(row) + noise * normal(first + e, d, stream))  # w* = (1, …, 1)
    return torch.tensor(x, dtype=torch.float32, device=device), torch.tensor(y, dtype=torch.float32, device=device)[:, None]


def averaged(w, first, stream, group, size):
    """This rank's gradient of the mean squared error on its rows, and its squared norm, averaged over the group."""
    x, y = rows(first, stream)
    wt = torch.tensor(w, dtype=torch.float32, device=device)[:, None]
    r = (x @ wt - y) * (2 / per_rank)
    g = (x.T @ r).reshape(d)
    sent = torch.tensor(g.tolist() + [norm_sq(g.tolist())], dtype=torch.float32, device=device)
    dist.all_reduce(sent, op=dist.ReduceOp.SUM, group=group)
    sent /= size
    v = sent.tolist()
    return v[:d], v[d]


def norm_sq(v):
    return sum(x * x for x in v)


def train(group, size, group_rank):
    batch = per_rank * size
    lr = min(base_lr * batch / per_rank, max_lr)
    w = [0.0] * d
    dist.barrier(group=group)
    t0 = wall_clock(device)
    steps, first = 0, None
    while excess(w) > target:
        a = averaged(w, steps * batch + group_rank * per_rank, 0, group, size)
        first = first or a
        w = [w[i] - lr * a[0][i] for i in range(d)]
        steps += 1
    return steps, wall_clock(device) - t0, w, first


def noise_scale(small_norm_sq, big_norm_sq, big):
    small = per_rank
    grad_sq = (big * big_norm_sq - small * small_norm_sq) / (big - small)
    trace_sigma = (small_norm_sq - big_norm_sq) / (1 / small - 1 / big)
    return trace_sigma / grad_sq


sizes = []
n = 1
while n < world and world % (2 * n) == 0:
    sizes.append(n)
    n *= 2
sizes.append(world)
# Phases of groups side by side, as the playground places them: largest first, a new phase when the ranks run out.
phases = []
for size in reversed(sizes[:-1]):
    phase = next((p for p in phases if world - sum(g[0] for g in p) >= size), None)
    if phase is None:
        phase = []
        phases.append(phase)
    phase.append((size, sum(g[0] for g in phase)))
phases.append([(world, 0)])

results = torch.zeros(2 * len(sizes) + 2, dtype=torch.float64, device=device)
for phase in phases:
    # Every rank makes every group, in the same order, as torch.distributed.new_group requires.
    groups = [(size, first, dist.new_group(list(range(first, first + size)))) for size, first in phase]
    mine = next(((n, f, g) for n, f, g in groups if f <= rank < f + n), None)
    if mine is not None:
        n, first, group = mine
        at = sizes.index(n)
        steps, seconds, w, start_grads = train(group, n, rank - first)
        if rank == first:
            results[at] = steps
            results[len(sizes) + at] = seconds
        if n == world and world > 1:
            draws = math.ceil(measured / world)
            small, total = 0.0, [0.0] * d
            for k in range(draws):
                G, s = averaged(w, (k * world + rank) * per_rank, 1, group, n)
                small += s / draws
                total = [total[i] + G[i] / draws for i in range(d)]
            big = norm_sq(torch.tensor(total, dtype=torch.float32).tolist())
            batch = per_rank * world
            if rank == 0:
                results[2 * len(sizes)] = noise_scale(start_grads[1], norm_sq(start_grads[0]), batch)
                results[2 * len(sizes) + 1] = noise_scale(small, big, batch * draws)
    dist.barrier()  # the next phase starts together
dist.all_reduce(results, op=dist.ReduceOp.SUM)
values = results.tolist()
steps = values[: len(sizes)]
seconds = values[len(sizes) : 2 * len(sizes)]
at_start, at_target = values[2 * len(sizes) :]


def fmt_time(s):
    return f"{fixed(s, 2)} s" if s >= 1 else f"{fixed(s * 1000, 1)} ms"


say("times: wall clock, measured on this machine (the toy model, not GPT-3 Small)")
say("ranks | global batch | learning rate | steps to target | examples | time to target | GPU time")
for i, n in enumerate(sizes):
    batch = per_rank * n
    lr = min(base_lr * batch / per_rank, max_lr)
    say(f"{n:>5} | {batch:>12} | {fixed(lr, 4):>13} | {int(steps[i]):>15} | {int(batch * steps[i]):>8} | "
        f"{fmt_time(seconds[i]):>14} | {fmt_time(n * seconds[i])}")
s_min = min(steps)
e_min = min(per_rank * n * steps[i] for i, n in enumerate(sizes))
b_crit = e_min / s_min
stalls = next((i for i in range(1, len(sizes)) if steps[i - 1] / steps[i] < 1.5), -1)
if stalls < 0:
    say(f"doubling the ranks cut the steps by at least 1.5× every time, up to {world}: the critical batch lies beyond {per_rank * world}")
else:
    say(f"doubling the ranks stops paying at {sizes[stalls]} ranks: {sizes[stalls - 1]} → {sizes[stalls]} cut the steps only "
        f"{fixed(steps[stalls - 1] / steps[stalls], 2)}×")
say(f"critical batch E_min/S_min = {int(e_min)} / {int(s_min)} = {fixed(b_crit, 0)} examples")
if world > 1:
    say(f"gradient noise scale B_simple from the ranks' gradients: {fixed(at_start, 0)} at the start, {fixed(at_target, 0)} at the target")
    if stalls > 0:
        say(f"B_simple at the target over the critical batch: {fixed(at_target / b_crit, 1)}× "
            "(McCandlish et al. predict about 1 when the Hessian is a multiple of the identity)")
best = seconds.index(min(seconds))
say(f"fastest to target: {sizes[best]} rank{'' if sizes[best] == 1 else 's'} ({fmt_time(seconds[best])})")
finish()
