"""PyTorch twin of 04-gradient-bucketing.ts (exercise 2): all-reduce 96 small gradients one by one, then packed into
buckets of a few KiB, then as one flat tensor, and time each. DDP's bucket_cap_mb (default 25) sets its bucket size.

Run: torchrun --nproc_per_node=4 04-gradient-bucketing.py   (ranks_twin.py next to this file)
"""
import time

import torch
import torch.distributed as dist

from ranks_twin import fixed, js_str, say, start, finish

rank, world, device = start()
tensors, elements, repeats, bucket_bytes = 96, 256, 5, 16 * 1024
grads = [torch.full((elements,), rank + i / tensors, device=device) for i in range(tensors)]


def averaged(t):
    out = t.clone()  # all_reduce works in place; keep the gradients for the next repeat
    dist.all_reduce(out, op=dist.ReduceOp.SUM)
    return out / world


def timed(label, run):
    dist.barrier()
    out = []
    start_time = time.perf_counter()
    for _ in range(repeats):
        out = run()
    if device.type == "cuda":
        torch.cuda.synchronize()
    ms = (time.perf_counter() - start_time) / repeats * 1000
    say(f"{label.ljust(28)} {fixed(ms, 2)} ms per step, {len(out)} all-reduce calls")
    return out


one_by_one = timed("one all-reduce per tensor", lambda: [averaged(g) for g in grads])

# Pack gradients in reverse order (the order backward produces them) until a bucket is full.
per_bucket = max(1, bucket_bytes // (elements * 4))


def in_buckets():
    rev = grads[::-1]
    return [averaged(torch.cat(rev[i:i + per_bucket])) for i in range(0, len(rev), per_bucket)]


bucketed = timed(f"buckets of {bucket_bytes // 1024} KiB", in_buckets)
flat_all = timed("one flat tensor", lambda: [averaged(torch.cat(grads))])

# Same numbers either way: unpack the buckets and compare with the per-tensor results.
unpacked = torch.cat(bucketed).reshape(tensors, elements).flip(0)
direct = torch.stack(one_by_one)
diff = (unpacked - direct).abs().max().item()
# Gloo and NCCL pick their reduction algorithm by message size, so sums may differ in the last float32 bit.
say(f"rank {rank}: buckets give the same averaged gradients: {js_str(diff <= 1e-6 and len(flat_all) == 1)}")
finish()
