"""PyTorch twin of the lab's lab-scatter-gather.ts: scatter splits a tensor along its first axis, gather stacks.

Run: torchrun --nproc_per_node=4 lab-scatter-gather.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist

from ranks_twin import console_line, js_str, say, start, finish

rank, world, device = start()
n = world
# On rank 0: a batch of n rows, row k = [k, k, k]. The other ranks pass no list.
batch = torch.tensor([[float(k)] * 3 for k in range(n)], device=device) if rank == 0 else None
my_rows = torch.empty(3, device=device)
dist.scatter(my_rows, list(batch.unbind(0)) if rank == 0 else None, src=0)
say(console_line("scattered to me:", my_rows))

squared = my_rows.square()
gathered = [torch.empty(3, device=device) for _ in range(n)] if rank == 0 else None
dist.gather(squared, gathered, dst=0)
stacked = torch.stack(gathered).tolist() if rank == 0 else None
as_json = lambda rows: "[" + ",".join("[" + ",".join(js_str(v) for v in row) + "]" for row in rows) + "]"
if stacked:
    say("gathered on rank 0:", as_json(stacked))
expected = [[k * k] * 3 for k in range(n)]
say(f"scatter/gather ok: {js_str(as_json(stacked) == as_json(expected) if stacked else my_rows[0].item() == rank)}")
finish()
