"""PyTorch twin of 02-ring-all-reduce-starter.ts (the exercise): the reduce-scatter half of a ring is written; the
all-gather half is yours (see TODO), exactly as in the page.

Run: torchrun --nproc_per_node=4 02-ring-all-reduce-starter.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist

from ranks_twin import js_str, say, start, finish

rank, world, device = start()
n, r = world, rank
nxt, prev = (r + 1) % n, (r - 1 + n) % n


def all_reduce(x):
    out = x.clone()
    dist.all_reduce(out, op=dist.ReduceOp.SUM)
    return out


def ring_all_reduce(x):
    chunks = list(x.clone().chunk(n))  # x.numel() must be a multiple of n here
    # Reduce-scatter: n − 1 steps. At step s, send chunk r − s to the right and add chunk r − s − 1 from the left.
    for s in range(n - 1):
        out, inc = (r - s) % n, (r - s - 1) % n
        sending = dist.isend(chunks[out].contiguous(), dst=nxt)
        got = torch.empty_like(chunks[inc])
        dist.recv(got, src=prev)
        sending.wait()
        chunks[inc] = chunks[inc] + got
    # Chunk r + 1 now holds the sum over all ranks: check it against the library's all-reduce.
    truth = all_reduce(x).chunk(n)[(r + 1) % n]
    rs_gap = (chunks[(r + 1) % n] - truth).abs().max().item()
    say(f"rank {r}: reduce-scatter phase correct: {js_str(rs_gap == 0)}")
    # TODO all-gather: n − 1 more steps. At step s, send chunk r + 1 − s to the right and
    # REPLACE (not add) chunk r − s with what arrives from the left. Then return torch.cat(chunks).
    return torch.cat(chunks)


x = torch.arange(0, 4 * n, dtype=torch.float32, device=device) + 10 * r
mine = ring_all_reduce(x)
theirs = all_reduce(x)
gap = (mine - theirs).abs().max().item()
say(f"rank {r}: ring [{js_str(mine.tolist()[:4])} …] vs dist.allReduce [{js_str(theirs.tolist()[:4])} …]")
say(f"ring all-reduce matches dist.allReduce: {js_str(gap == 0)}")
finish()
