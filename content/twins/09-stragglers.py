"""PyTorch twin of 09-stragglers.ts: a synchronous step waits for the slowest of its N ranks. Every rank's step takes
100 ms plus a random delay, exponential with a mean of 5 ms (the same draws as the playground: tf.randomUniform with
seed 1000 + rank, rebuilt by ranks_twin.random_uniform, then −mean × ln(1 − u)); groups of 1, 2, 4, … ranks
(dist.new_group) step side by side on their own ranks, then the whole job steps, and each size's mean step is set
against the expectation of the slowest of N delays, mean × (1 + 1/2 + … + 1/N).

Times: on its page the playground times a simulated cluster (virtual time: each step's compute charged on H100 nodes,
up to 1,024 GPUs). This twin measures the machine it runs on: wall time with time.perf_counter() after dist.barrier(),
each rank sleeping its step (time.sleep), so the wait for the slowest is real. Start it with as many processes as
the group sizes you want to see; CI runs it at 2 ranks.

Run: torchrun --nproc_per_node=4 09-stragglers.py   (ranks_twin.py next to this file)
"""
import math
import time

import torch
import torch.distributed as dist

from ranks_twin import fixed, random_uniform, say, start, finish, wall_clock

rank, world, device = start()
base_ms, mean_delay_ms, steps = 100, 5, 12
sizes = []
n = 1
while n < world and world % (2 * n) == 0:
    sizes.append(n)
    n *= 2
sizes.append(world)
uniform = random_uniform([len(sizes) * steps], 0, 1, seed=1000 + rank).tolist()
delay_ms = [-mean_delay_ms * math.log(1 - u) for u in uniform]


def step(group, ms):
    t0 = wall_clock(device)
    time.sleep(ms / 1000)  # the step's compute
    grad = torch.full([1024], 0.001, device=device)
    dist.all_reduce(grad, op=dist.ReduceOp.SUM, group=group)  # waits for the group's slowest rank
    return wall_clock(device) - t0


# Phases of groups side by side, as the playground places them: largest first, a new phase when the ranks run out.
phases = []
for size in reversed(sizes[:-1]):
    phase = next((p for p in phases if world - sum(g[0] for g in p) >= size), None)
    if phase is None:
        phase = []
        phases.append(phase)
    phase.append((size, sum(g[0] for g in phase)))
phases.append([(world, 0)])

sums = torch.zeros(len(sizes), dtype=torch.float64, device=device)
for phase in phases:
    # Every rank makes every group, in the same order, as torch.distributed.new_group requires.
    groups = [(size, first, dist.new_group(list(range(first, first + size)))) for size, first in phase]
    mine = next(((n, f, g) for n, f, g in groups if f <= rank < f + n), None)
    if mine is not None:
        n, first, group = mine
        i = sizes.index(n)
        dist.barrier(group=group)
        for s in range(steps):
            seconds = step(group, base_ms + delay_ms[i * steps + s])
            if rank == first:
                sums[i] += seconds
    dist.barrier()  # the next phase starts together
dist.all_reduce(sums, op=dist.ReduceOp.SUM)


def harmonic(n):
    return sum(1 / k for k in range(n, 0, -1))


mean = base_ms + mean_delay_ms
say(f"times: wall clock, measured on this machine; every rank sleeps {base_ms} ms plus an exponential delay of mean {mean_delay_ms} ms")
for i, n in enumerate(sizes):
    step_ms = sums[i].item() / steps * 1000
    expected = (base_ms + mean_delay_ms * harmonic(n)) / mean
    say(f"{n:>4} GPU{' ' if n == 1 else 's'}: mean step {fixed(step_ms, 1)} ms, {fixed(step_ms / mean, 3)}× one GPU's mean compute; "
        f"the slowest of {n} is expected at {fixed(expected, 3)}×")
finish()
