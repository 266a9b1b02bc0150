"""PyTorch twin of 04-bucket-sweep.ts (exercise 2, continued): the same gradient all-reduced in 256 buckets, in 16 and
in one, every bucket launched asynchronously and then all awaited, as DDP launches its buckets from autograd hooks.
Small buckets pay the per-call latency many times (latency-bound); large ones approach the links' bus bandwidth.
The summed gradient itself does not depend on the buckets: its mean and largest value agree with the playground's.

Times: on its page the playground times a simulated cluster (virtual time, each call charged as a 100M-parameter
model's bf16 gradients on NCCL's cost model). This twin measures the machine it runs on: wall time with
time.perf_counter() after dist.barrier(), for this program's own float32 bytes. In DDP the bucket size is
DistributedDataParallel(model, bucket_cap_mb=…) (25 by default).

Run: torchrun --nproc_per_node=4 04-bucket-sweep.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist

from ranks_twin import fixed, js_str, random_normal, say, say_clock, start, finish, wall_clock

rank, world, device = start()
elements = 1 << 18  # 1 MiB of float32
grad = random_normal([elements], 0, 1, seed=1 + rank).to(device)


def size(b):
    return f"{fixed(b / 1e9, 2)} GB" if b >= 1e9 else f"{fixed(b / 1e6, 1)} MB" if b >= 1e6 else f"{fixed(b / 1e3, 0)} KB"


say_clock()
results = []
summed = None
for bucket in (1 << 10, 1 << 14, 1 << 18):
    parts = [p.clone() for p in grad.split(bucket)]  # all_reduce works in place: keep grad for the next size
    dist.barrier()
    t = wall_clock(device)
    works = [dist.all_reduce(p, op=dist.ReduceOp.SUM, async_op=True) for p in parts]
    for w in works:
        w.wait()
    seconds = wall_clock(device) - t
    if bucket == elements:
        summed = parts[0]
    results.append(seconds)
    if rank == 0:
        count = elements // bucket
        busbw = 2 * (world - 1) * elements * 4 / world / seconds  # nccl-tests' bus bandwidth for an all-reduce
        label = "bucket " if bucket == elements else "buckets"
        say(f"{count:>3} {label} of {size(bucket * 4)}: {fixed(seconds * 1000, 2)} ms, bus bandwidth {fixed(busbw / 1e9, 0)} GB/s")
small, _, large = results
say(f"small buckets take {fixed(small / large, 1)}× as long as one bucket")
say(f"small buckets are latency-bound: {js_str(small > 2 * large)}")
mean = summed.double().sum().item() / elements
say(f"summed gradient: mean {fixed(mean, 6)}, largest |g| {fixed(summed.abs().max().item(), 6)}")
finish()
