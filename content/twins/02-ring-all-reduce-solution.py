"""PyTorch twin of 02-ring-all-reduce-solution.ts: a ring all-reduce from isend and recv, checked against all_reduce.

Run: torchrun --nproc_per_node=4 02-ring-all-reduce-solution.py   (ranks_twin.py next to this file)
"""
import time

import torch
import torch.distributed as dist

from ranks_twin import fixed, js_str, random_uniform, say, start, finish

rank, world, device = start()
n, r = world, rank
nxt, prev = (r + 1) % n, (r - 1 + n) % n
bytes_sent = 0


def exchange(out):
    """Sends `out` to the right neighbour while receiving a chunk of the same shape from the left."""
    global bytes_sent
    sending = dist.isend(out.contiguous(), dst=nxt)  # send first, then receive: no deadlock
    got = torch.empty_like(out)
    dist.recv(got, src=prev)
    sending.wait()
    bytes_sent += out.numel() * 4
    return got


def ring_all_reduce(x):
    chunks = list(x.clone().chunk(n))
    for s in range(n - 1):  # reduce-scatter: add what arrives
        inc = (r - s - 1) % n
        chunks[inc] = chunks[inc] + exchange(chunks[(r - s) % n])
    for s in range(n - 1):  # all-gather: replace with what arrives
        inc = (r - s) % n
        chunks[inc] = exchange(chunks[(r + 1 - s) % n])
    return torch.cat(chunks)


def all_reduce(x):
    out = x.clone()
    dist.all_reduce(out, op=dist.ReduceOp.SUM)  # NCCL picks ring or tree itself (NCCL_ALGO=Ring forces the ring)
    return out


elements = 4096 * n
x = random_uniform([elements], -1, 1, seed=r + 1).to(device)
ring_all_reduce(x)
all_reduce(x)  # warm-up: the first calls set up connections
bytes_sent = 0
t0 = time.perf_counter()
mine = ring_all_reduce(x)
t1 = time.perf_counter()
theirs = all_reduce(x)
t2 = time.perf_counter()
gap = (mine - theirs).abs().max().item()
D = elements * 4
say(f"rank {r}: sent {bytes_sent} bytes = 2(n−1)/n · D = {js_str((2 * (n - 1) / n) * D)}")
say(f"rank {r}: send/recv ring {fixed((t1 - t0) * 1000, 1)} ms, dist.allReduce {fixed((t2 - t1) * 1000, 1)} ms")
say(f"ring all-reduce matches dist.allReduce: {js_str(gap < 1e-5)}")
finish()
