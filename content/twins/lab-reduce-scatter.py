"""PyTorch twin of the lab's lab-reduce-scatter.ts: sum the tensors of all ranks; each rank keeps only its slice.

Run: torchrun --nproc_per_node=4 lab-reduce-scatter.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 2.3 or newer, whose Gloo has reduce_scatter_tensor.
"""
import torch
import torch.distributed as dist

from ranks_twin import console_line, js_str, say, start, finish

rank, world, device = start()
n = world
# Every rank holds a vector of length 2n: element i equals i + rank.
grads = torch.tensor([float(i + rank) for i in range(2 * n)], device=device)
my_slice = torch.empty(2, device=device)
dist.reduce_scatter_tensor(my_slice, grads)  # elements [2·rank, 2·rank + 2) of the sum
got = my_slice.tolist()
rank_sum = n * (n - 1) / 2
expected = [n * (2 * rank + j) + rank_sum for j in (0, 1)]
say(console_line("my slice of the sum:", got))
say(f"reduceScatter ok: {js_str(got == expected)}")
finish()
