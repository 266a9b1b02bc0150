"""PyTorch twin of the lab's lab-all-to-all.ts: all-to-all from send and recv, checked against its definition.

Run: torchrun --nproc_per_node=4 lab-all-to-all.py   (ranks_twin.py next to this file)
PyTorch has it built in, dist.all_to_all_single (on NCCL before 2.28 a group of ncclSend/ncclRecv per peer,
torch/csrc/cuda/nccl.cpp, all2all_single_equal_split); this twin builds it from isend and recv like the playground.
"""
import torch
import torch.distributed as dist

from ranks_twin import console_line, js_str, say, start, finish

rank, world, device = start()
n, r = world, rank
B = 3  # elements per block
# Block j of rank r holds 100·r + 10·j + k: who sends it, to whom, which element.
inp = torch.tensor([float(100 * r + 10 * (i // B) + i % B) for i in range(n * B)], device=device)
blocks = list(inp.chunk(n))

# Step s pairs a send to rank r + s with a receive from rank r − s.
sends = []
received = [None] * n
received[r] = blocks[r]  # the block a rank keeps never leaves it
sent = 0
for s in range(1, n):
    to, frm = (r + s) % n, (r - s + n) % n
    sends.append(dist.isend(blocks[to].contiguous(), dst=to))
    sent += blocks[to].numel() * 4
    got_block = torch.empty(B, device=device)
    dist.recv(got_block, src=frm)
    received[frm] = got_block
for h in sends:
    h.wait()
got = torch.cat(received).tolist()

# The definition: block i of rank r's output is block r of rank i's input.
expected = [float(100 * (i // B) + 10 * r + i % B) for i in range(n * B)]
D = n * B * 4  # bytes of each rank's buffer (float32)
say(console_line(f"rank {r} received:", got))
say(f"rank {r}: sent {sent} bytes = (n−1)/n · D = {js_str((n - 1) / n * D)}")
say(f"allToAll ok: {js_str(got == expected)}")
finish()
