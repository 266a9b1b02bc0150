"""PyTorch twin of the lab's lab-async-barrier.ts: start a collective with async_op=True, compute, then wait().

Run: torchrun --nproc_per_node=4 lab-async-barrier.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist

from ranks_twin import console_line, js_str, say, start, finish

rank, world, device = start()
big = torch.ones(1 << 16, device=device)
work = dist.all_reduce(big, async_op=True)  # communication starts now
busy = torch.randn(64, 64, device=device) @ torch.randn(64, 64, device=device)  # compute meanwhile
busy.sum().item()
say(console_line("compute finished; all-reduce done yet?", work.is_completed()))
work.wait()
dist.barrier()
say(f"async allReduce ok: {js_str(big[0].item() == world)}")
finish()
