"""PyTorch twin of 02-broadcast-scatter-gather.ts: data-parallel inference with broadcast, scatter, gather and reduce.

Run: torchrun --nproc_per_node=4 02-broadcast-scatter-gather.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist

from ranks_twin import exponential, js_str, random_normal, say, start, finish

rank, world, device = start()
n, rows_per_rank, features, outputs = world, 3, 4, 2

# Only rank 0 "loads the checkpoint"; the others start with zeros of the right shape.
W = random_normal([features, outputs], 0, 1, seed=7).to(device) if rank == 0 else torch.zeros(features, outputs, device=device)
dist.broadcast(W, src=0)  # in place: afterwards every rank holds rank 0's tensor

# Rank 0 holds the whole batch as [ranks, rows, features]; scatter hands slice k to rank k.
batch = random_normal([n, rows_per_rank, features], 0, 1, seed=11).to(device) if rank == 0 else None
my_rows = torch.empty(rows_per_rank, features, device=device)
dist.scatter(my_rows, list(batch.unbind(0)) if rank == 0 else None, src=0)

my_out = my_rows @ W  # no communication during the forward pass
outs = [torch.empty_like(my_out) for _ in range(n)] if rank == 0 else None
dist.gather(my_out, outs, dst=0)  # every rank's rows on rank 0 only

# A metric summed over all ranks lands on rank 0 only: that is reduce, not all-reduce.
total = my_out.square().sum()
dist.reduce(total, dst=0, op=dist.ReduceOp.SUM)

ok = 0
if rank == 0:
    single = batch.reshape(n * rows_per_rank, features) @ W  # one device, whole batch
    gathered = torch.stack(outs)
    gap = (gathered.reshape(n * rows_per_rank, outputs) - single).abs().max().item()
    metric_gap = abs(total.item() - single.square().sum().item())
    say(f"gathered {'×'.join(str(s) for s in gathered.shape)} outputs; max gap to one device {exponential(gap, 1)}")
    ok = 1 if gap < 1e-5 and metric_gap < 1e-3 else 0
else:
    say(f"rank {rank} computed rows {rank * rows_per_rank}..{(rank + 1) * rows_per_rank - 1}")
# Only rank 0 can check; one more broadcast tells every rank the verdict.
verdict = torch.tensor([float(ok)], device=device)
dist.broadcast(verdict, src=0)
say(f"inference matches one device: {js_str(verdict.item() == 1)}")
finish()
