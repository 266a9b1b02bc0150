"""PyTorch twin of the lab's lab-all-reduce.ts: every rank ends with the same reduction of all inputs.

Run: torchrun --nproc_per_node=4 lab-all-reduce.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist

from ranks_twin import console_line, js_str, say, start, finish

rank, world, device = start()
n = world
x = torch.tensor([rank + 1.0, 2.0 * rank], device=device)
# torch.distributed has no algorithm argument: NCCL chooses ring or tree by size (NCCL_ALGO=Ring|Tree forces one).
for algorithm in ("ring", "two-shot"):
    total = x.clone()
    dist.all_reduce(total, op=dist.ReduceOp.SUM)
    say(console_line(algorithm, "sum:", total))
avg = x.clone()
dist.all_reduce(avg, op=dist.ReduceOp.SUM)  # Gloo has no ReduceOp.AVG (NCCL does): sum, then divide
avg /= n
biggest = x.clone()
dist.all_reduce(biggest, op=dist.ReduceOp.MAX)
say(console_line("avg:", avg, "max:", biggest))
expected_total = n * (n + 1) / 2
say(f"allReduce ok: {js_str(biggest[0].item() == n and abs(avg[0].item() - expected_total / n) < 1e-6)}")
finish()
