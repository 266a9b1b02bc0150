"""PyTorch twin of 02-groups-and-async.ts: sub-groups with new_group, async_op handles, and the barrier.

Run: torchrun --nproc_per_node=4 02-groups-and-async.py   (ranks_twin.py next to this file)
"""
import math
import time

import torch
import torch.distributed as dist

from ranks_twin import fixed, js_str, say, start, finish

rank, world, device = start()
n, r = world, rank

# Every rank creates both groups, in the same order: new_group is itself a collective call.
low_ranks = list(range(math.ceil(n / 2)))
high_ranks = list(range(len(low_ranks), n))
low, high = dist.new_group(low_ranks), dist.new_group(high_ranks)
mine, mine_ranks = (low, low_ranks) if r in low_ranks else (high, high_ranks)
group_sum = torch.tensor(float(r), device=device)
dist.all_reduce(group_sum, op=dist.ReduceOp.SUM, group=mine)
expected = sum(mine_ranks)
say(f"rank {r} in group [{js_str(mine_ranks)}] (group rank {dist.get_rank(mine)}): sum {js_str(group_sum.item())}")
say(f"sub-group sums correct: {js_str(group_sum.item() == expected)}")

# async_op=True returns a handle at once; the reduction runs while this rank keeps computing.
grads = torch.full((1 << 15,), float(r + 1), device=device)
work = dist.all_reduce(grads, op=dist.ReduceOp.SUM, async_op=True)
busy = (torch.randn(96, 96, device=device) @ torch.randn(96, 96, device=device)).sum()
busy.item()
work.wait()  # only now is `grads` safe to read
total = n * (n + 1) // 2
say(f"async all-reduce correct after wait(): {js_str(work.is_completed() and grads[0].item() == total)}")

# A barrier: nobody passes until everyone has arrived. Rank 0 arrives late, on purpose.
t0 = time.perf_counter()
if r == 0:
    time.sleep(0.15)
arrived = int(time.time() * 1000)
dist.barrier()
left = int(time.time() * 1000)
say(f"rank {r} waited {fixed((time.perf_counter() - t0) * 1000, 0)} ms at the barrier")
# Rank 0 shares its arrival time (split in two so float32 keeps every millisecond); no rank may have left before it.
split = torch.tensor([float(arrived // 1_000_000), float(arrived % 1_000_000)], device=device)
dist.broadcast(split, src=0)
hi, lo = split.tolist()
say(f"barrier held every rank until rank 0 arrived: {js_str(left >= hi * 1e6 + lo)}")
finish()
