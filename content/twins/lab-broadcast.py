"""PyTorch twin of the lab's lab-broadcast.ts: one rank sends its tensor; afterwards every rank holds a copy.

Run: torchrun --nproc_per_node=4 lab-broadcast.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist

from ranks_twin import console_line, js_str, say, start, finish

rank, world, device = start()
mine = torch.tensor([rank * 100.0, rank * 100.0 + 1], device=device)  # different on every rank
from_root = mine.clone()  # broadcast overwrites its argument on every rank but src
dist.broadcast(from_root, src=0)
say(console_line("before", mine, "→ after", from_root))
say(f"same as rank 0: {js_str(all(v == i for i, v in enumerate(from_root.tolist())))}")
finish()
