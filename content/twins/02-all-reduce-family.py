"""PyTorch twin of 02-all-reduce-family.ts: all-reduce = reduce-scatter followed by all-gather.

Run: torchrun --nproc_per_node=4 02-all-reduce-family.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 2.3 or newer, whose Gloo has reduce_scatter_tensor and all_gather_into_tensor.
"""
import torch
import torch.distributed as dist

from ranks_twin import js_str, say, start, finish

rank, world, device = start()
n, r = world, rank

# Rank r contributes [1 + 2r, 2 + 2r]; the sums are n² and n² + n.
x = torch.tensor([1.0 + 2 * r, 2.0 + 2 * r], device=device)
summed = x.clone()
dist.all_reduce(summed, op=dist.ReduceOp.SUM)  # in place: torch.distributed overwrites its argument
say(f"rank {r}: [{js_str(x)}] -> all-reduce sum [{js_str(summed)}]")
formula = [n * n, n * n + n]
say(f"sum equals [n², n² + n]: {js_str(summed.tolist() == formula)}")

# A longer vector of 8n elements: reduce-scatter leaves each rank one fully reduced chunk of 8...
v = torch.arange(0, 8 * n, dtype=torch.float32, device=device) + 100 * r
my_chunk = torch.empty(8, device=device)
dist.reduce_scatter_tensor(my_chunk, v, op=dist.ReduceOp.SUM)
# ...and all-gather puts the chunks back together on every rank.
composed = torch.empty(8 * n, device=device)
dist.all_gather_into_tensor(composed, my_chunk)
direct = v.clone()
dist.all_reduce(direct, op=dist.ReduceOp.SUM)
same = (composed - direct).abs().max().item() == 0
say(f"rank {r} owns chunk {r}: [{', '.join(js_str(t) for t in my_chunk.tolist()[:3])}, …]")
say(f"reduce-scatter then all-gather equals all-reduce: {js_str(same)}")

# Other reduction operators work the same way (Gloo has no AVG: sum, then divide).
biggest = torch.tensor(float(r), device=device)
dist.all_reduce(biggest, op=dist.ReduceOp.MAX)
mean = torch.tensor(float(r), device=device)
dist.all_reduce(mean, op=dist.ReduceOp.SUM)
mean /= n
say(f"max rank {js_str(biggest.item())}, mean rank {js_str(mean.item())}")
finish()
