"""PyTorch twin of the lab's lab-all-gather.ts: every rank contributes a tensor and every rank receives all of them.

Run: torchrun --nproc_per_node=4 lab-all-gather.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 2.3 or newer, whose Gloo has all_gather_into_tensor.
"""
import json

import torch
import torch.distributed as dist

from ranks_twin import js_str, say, start, finish

rank, world, device = start()
shard = torch.tensor([float(rank), rank + 0.5], device=device)
everyone = torch.empty(world, 2, device=device)  # stacked along a new first axis: shape [world, 2]
dist.all_gather_into_tensor(everyone, shard)
rows = everyone.tolist()
say("all shards:", "[" + ",".join("[" + ",".join(js_str(v) for v in row) + "]" for row in rows) + "]")
say(f"allGather ok: {js_str(all(row[0] == k and row[1] == k + 0.5 for k, row in enumerate(rows)))}")
finish()
