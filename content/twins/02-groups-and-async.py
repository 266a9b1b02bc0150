"""PyTorch twin of 02-groups-and-async.ts: sub-groups with new_group, async_op handles (a late rank 0, a blocking
all-reduce against an overlapped one), and the barrier.

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

# async_op=True returns a handle at once; the rank keeps computing while the all-reduce is in flight.
# Rank 0 is late on purpose, as a rank still finishing its backward pass would be. The others have
# useful work to do meanwhile: a few matrix products standing in for the rest of their backward pass.
late_s = 0.4


def product():
    return (torch.randn(128, 128, device=device) @ torch.randn(128, 128, device=device)).sum().item()


# Warm the kernels up first, then size the work by the clock rather than by a count: products until
# three quarters of rank 0's delay have passed, so a slow or fast warm-up cannot leave too little work to overlap.
for _ in range(3):
    product()


def work():
    # Gloo and NCCL progress collectives on their own threads / streams: the work needs no yield to let them run.
    start = time.perf_counter()
    while True:
        product()
        if time.perf_counter() - start >= 3 * late_s / 4:
            break


grads = torch.full((1 << 15,), float(r + 1), device=device)
total = n * (n + 1) // 2

# First blocking: the call holds the rank until the all-reduce is done, then the work starts.
dist.barrier()
if r == 0:
    time.sleep(late_s)
t = time.perf_counter()
dist.all_reduce(grads.clone(), op=dist.ReduceOp.SUM)
blocked_ms = (time.perf_counter() - t) * 1000
work()

# Then asynchronous: start the all-reduce, do the same work while it waits for rank 0, then wait().
dist.barrier()
if r == 0:
    time.sleep(late_s)
result = grads.clone()
handle = dist.all_reduce(result, op=dist.ReduceOp.SUM, async_op=True)
pending_while_working = not handle.is_completed()
t = time.perf_counter()
# Rank 0's lateness stands for its own remaining work: it has nothing left to overlap and waits at once.
if r != 0:
    work()
work_ms = (time.perf_counter() - t) * 1000
t = time.perf_counter()
handle.wait()  # only now is `result` safe to read
wait_ms = (time.perf_counter() - t) * 1000
in_flight = " (still in flight when the work began)" if pending_while_working else ""
say(f"rank {r}: the blocking all-reduce held it {fixed(blocked_ms, 0)} ms; started async{in_flight}, "
    f"{fixed(work_ms, 0)} ms of work, then wait() held it {fixed(wait_ms, 0)} ms")
say(f"async all-reduce correct after wait(): {js_str(handle.is_completed() and result[0].item() == total)}")
# The ranks kept waiting by rank 0 did their work inside that wait, so wait() held them for less time.
gained = [torch.empty(1, device=device) for _ in range(n)]
dist.all_gather(gained, torch.tensor([blocked_ms - wait_ms], device=device))
gained_by_waiters = [g.item() for k, g in enumerate(gained) if k != 0]
say(f"ranks that waited for rank 0 overlapped their work with it: {js_str(all(ms > 0 for ms in gained_by_waiters))}")

# A barrier: nobody passes until everyone has arrived. Rank 0 arrives late, on purpose.
dist.barrier()
if r == 0:
    time.sleep(late_s)
arrived = int(time.time() * 1000)
arrived_at = time.perf_counter()  # start the clock on arrival: rank 0's own delay is not waiting
dist.barrier()
waited_ms = (time.perf_counter() - arrived_at) * 1000
left = int(time.time() * 1000)
say(f"rank {r} waited {fixed(waited_ms, 0)} ms at the barrier")
# Rank 0 shares its arrival time (split in two so float32 keeps every millisecond); no rank may have left before it.
split = torch.tensor([float(arrived // 1_000_000), float(arrived % 1_000_000)], device=device)
dist.broadcast(split, src=0)
hi, lo = split.tolist()
say(f"barrier held every rank until rank 0 arrived: {js_str(left >= hi * 1e6 + lo)}")
waits = [torch.empty(1, device=device) for _ in range(n)]
dist.all_gather(waits, torch.tensor([waited_ms], device=device))
waits = [w.item() for w in waits]
say(f"the late rank 0 waited least: {js_str(n == 1 or all(ms > waits[0] for ms in waits[1:]))}")
finish()
