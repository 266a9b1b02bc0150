"""PyTorch twin of 01-char-transformer.ts: a small decoder-only, character-level transformer trained three ways at once
on every rank: with DistributedDataParallel on this rank's shard of each global batch, with FSDP2's fully_shard on the
same shard (fully_shard on each block, then on the root, which takes the embeddings and the head: each rank keeps a
1/world slice of every weight and of Adam's state), and, on rank 0, as one device on the whole batch. Same init, same data, same Adam (torch.optim.Adam, which the playground's
Adam copies operation for operation): the losses and the final weights agree to float32 rounding. The playground's
plot.line charts are drawn on its page only; this twin prints just its console lines.

Run: torchrun --nproc_per_node=4 01-char-transformer.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 2.6 or newer for its FSDP part, as on GPUs: fully_shard (FSDP2) is public in torch.distributed.fsdp from 2.6, and it gets its mesh from ranks_twin.fsdp_mesh (fully_shard's default mesh follows the accelerator the wheel was built for, not the machine). On older PyTorch (CI has 1.13) it trains DDP and one device only and prints n/a where the FSDP numbers go.
FSDP2 averages fp32 gradients with a ReduceOp.AVG reduce-scatter (_fsdp_collectives.py, _get_gradient_divide_factors);
pytorch/pytorch#162338 reports Gloo summing there instead on some versions. Adam hides that scale (m/√v is unchanged
but for eps), so the FSDP verdict would still hold; SGD would not.
"""
import math
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from ranks_twin import Lcg, exponential, fixed, fsdp_gloo_sum, fsdp_mesh, js_str, random_normal, say, start, finish

# By version, not try/except: 1.13's torch.distributed.fsdp (FSDP1) fails to import on Python 3.11 with a ValueError.
if tuple(int(v) for v in torch.__version__.split("+")[0].split(".")[:2]) >= (2, 6):
    from torch.distributed.fsdp import fully_shard
else:
    fully_shard = None  # no public FSDP2 before 2.6

rank, world, device = start()
text = "Data parallelism copies the model to every rank and splits the batch. Each rank computes gradients on its own examples; an all-reduce averages them, and every replica takes the same step. Nothing about the mathematics changes: the average of the shard gradients is the gradient of the whole batch."
vocab = sorted(set(text))
V = len(vocab)
ids = torch.tensor([vocab.index(c) for c in text])
s, h, heads, layers, global_batch, steps = 16, 32, 4, 2, 8, 8
dh = h // heads
n = world
if global_batch % n != 0:
    raise SystemExit(f"global batch {global_batch} must divide by the world size {n}")
per = global_batch // n
causal = torch.triu(torch.ones(s, s), diagonal=1).mul(-1e9).to(device)  # 0 on and below the diagonal, −1e9 above


def r(shape, seed):
    return nn.Parameter(random_normal(shape, 0, 0.08, seed=seed))  # the same seeds on every rank


class Block(nn.Module):
    """One pre-norm block: causal multi-head attention, then a 4h MLP, each added back (LayerNorm without affine)."""

    def __init__(self, l):
        super().__init__()
        self.wqkv, self.wo = r([h, 3 * h], 10 + l), r([h, h], 20 + l)
        self.w1, self.w2 = r([h, 4 * h], 30 + l), r([4 * h, h], 40 + l)

    def forward(self, y):
        # Attributes read at call time: FSDP2 swaps each module's registered parameters (sharded ↔ whole).
        rows = y.shape[0]
        qkv = F.layer_norm(y, (h,), eps=1e-5) @ self.wqkv
        q, k, v = (qkv[:, :, i * h:(i + 1) * h].reshape(rows, s, heads, dh).transpose(1, 2) for i in range(3))
        att = (q @ k.transpose(-1, -2) / math.sqrt(dh) + causal).softmax(-1)
        y = y + (att @ v).transpose(1, 2).reshape(rows, s, h) @ self.wo
        return y + F.relu(F.layer_norm(y, (h,), eps=1e-5) @ self.w1) @ self.w2


class CharTransformer(nn.Module):
    """Embeddings, the blocks, and the output head: the playground's stages."""

    def __init__(self):
        super().__init__()
        self.wte, self.wpe = r([V, h], 1), r([s, h], 2)
        self.blocks = nn.ModuleList(Block(l) for l in range(layers))
        self.head = r([h, V], 3)

    def forward(self, x):
        y = self.wte[x] + self.wpe  # an embedding lookup: the playground's one-hot × table
        for block in self.blocks:
            y = block(y)
        return F.layer_norm(y, (h,), eps=1e-5) @ self.head


def batch(t):
    """The global batch of step t, the same on every rank: windows of s characters and their next characters."""
    lcg = Lcg(1000 + t)
    starts = [math.floor((lcg.value() + 1) / 2 * (len(ids) - s - 1)) for _ in range(global_batch)]
    x = torch.stack([ids[a:a + s] for a in starts]).to(device)
    y = torch.stack([ids[a + 1:a + s + 1] for a in starts]).to(device)
    return x, y


def train_step(model, optimizer, x, y):
    """Next-character cross-entropy averaged over rows and positions; returns the loss before the update."""
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x).reshape(-1, V), y.reshape(-1))
    loss.backward()
    optimizer.step()
    return loss.item()


def averaged(local):
    """The mean of the ranks' shard losses (equal shards: the batch mean). SUM then ÷ n: Gloo lacks AVG before 2.x."""
    total = torch.tensor([local], device=device)
    dist.all_reduce(total, op=dist.ReduceOp.SUM)
    return total.item() / n


def adam(model):
    return torch.optim.Adam(model.parameters(), lr=3e-3)


ddp = DistributedDataParallel(CharTransformer().to(device))  # gradients all-reduced (averaged) in backward
ddp_opt = adam(ddp)
fsdp = None
fsdp_units = []  # in forward order, as the playground prints them
if fully_shard is not None:
    fsdp = CharTransformer().to(device)
    # FSDP2's recipe (fully_shard's docstring: bottom-up, not on the root only): one unit per block, all-gathered
    # just before it computes, its gradients reduce-scattered (averaged) as soon as its backward ends.
    mesh = fsdp_mesh(device)  # explicit: fully_shard's default follows the wheel's accelerator, not the machine
    for l, block in enumerate(fsdp.blocks):
        fully_shard(block, mesh=mesh)
        fsdp_gloo_sum(block, device, required=False)  # Gloo's AVG where the PyTorch can avoid it; Adam is scale-free
        fsdp_units.append(f"block {l}")
    # Then the root, whose unit takes what no block claimed (embeddings, head); reshard_after_forward left as None
    # keeps the root's parameters whole from forward to backward, which needs the head first.
    fully_shard(fsdp, mesh=mesh)
    fsdp_gloo_sum(fsdp, device, required=False)
    fsdp_units.insert(0, "embedding + head (root)")  # forward reaches the root's embedding first
    fsdp_opt = adam(fsdp)  # Adam's state is built on the dim-0 DTensor shards, so it is sharded too
# The one-device reference runs on rank 0 only (the whole batch, every step); its verdicts are broadcast.
single = CharTransformer().to(device) if rank == 0 else None
single_opt = adam(single) if single is not None else None
worst_loss_gap = first_loss = last_loss = 0.0
ms = {"ddp": 0.0, "fsdp": 0.0, "single": 0.0}


def timed(which, step):
    t0 = time.perf_counter()
    loss = step()
    ms[which] += (time.perf_counter() - t0) * 1000
    return loss


for t in range(steps):
    x, y = batch(t)
    mine_x, mine_y = x[rank * per:(rank + 1) * per], y[rank * per:(rank + 1) * per]  # this rank's shard
    # Each rank trains on its shard: DDP all-reduces the gradients, FSDP reduce-scatters them.
    ddp_loss = averaged(timed("ddp", lambda: train_step(ddp, ddp_opt, mine_x, mine_y)))
    fsdp_loss = averaged(timed("fsdp", lambda: train_step(fsdp, fsdp_opt, mine_x, mine_y))) if fsdp else None
    if t == 0:
        first_loss = ddp_loss
    last_loss = ddp_loss
    if single is not None:
        reference = timed("single", lambda: train_step(single, single_opt, x, y))
        gaps = [abs(ddp_loss - reference)] + ([abs(fsdp_loss - reference)] if fsdp else [])
        worst_loss_gap = max(worst_loss_gap, *gaps)
        if t % 4 == 0 or t == steps - 1:
            fsdp_text = fixed(fsdp_loss, 4) if fsdp else "n/a"
            say(f"step {t:>2}: loss {fixed(ddp_loss, 4)} DDP, {fsdp_text} FSDP, {fixed(reference, 4)} one device")

ddp_w = [p.detach() for p in ddp.module.parameters()]
fsdp_w = [p.full_tensor().detach() for p in fsdp.parameters()] if fsdp else None  # all-gathers every rank's shards


def gap(ws):
    return max((a - b).abs().max().item() for a, b in zip(ws, single.parameters()))


mine = [worst_loss_gap, gap(ddp_w), gap(fsdp_w) if fsdp else 0.0, ms["single"] / steps] if single is not None else [0.0] * 4
verdict = torch.tensor(mine, dtype=torch.float32, device=device)
dist.broadcast(verdict, src=0)
loss_gap, ddp_gap, fsdp_gap, single_ms = verdict.tolist()
count = sum(p.numel() for p in ddp.module.parameters())


def per_step(total):
    return f"{fixed(total / steps, 0)} ms"


fsdp_ms = per_step(ms["fsdp"]) if fsdp else "n/a"
say(f"FSDP units: {', '.join(fsdp_units) if fsdp else 'n/a'}")
say(f"vocabulary {V} characters, {count} parameters; per step: DDP {per_step(ms['ddp'])}, FSDP {fsdp_ms}, one device {fixed(single_ms, 0)} ms ({device.type})")
fsdp_gap_text = exponential(fsdp_gap, 1) if fsdp else "n/a"
say(f"loss fell from {fixed(first_loss, 2)} to {fixed(last_loss, 2)}: {js_str(last_loss < first_loss - 0.5)}; largest loss gap {exponential(loss_gap, 1)}, largest weight gap DDP {exponential(ddp_gap, 1)}, FSDP {fsdp_gap_text}")
say(f"DDP on {n} ranks matches one device (tolerance 1e-4): {js_str(ddp_gap < 1e-4 and loss_gap < 1e-4)}")
if fsdp:
    say(f"FSDP on {n} ranks matches one device (tolerance 1e-4): {js_str(fsdp_gap < 1e-4 and loss_gap < 1e-4)}")
else:
    say(f"FSDP on {n} ranks matches one device (tolerance 1e-4): n/a, fully_shard (FSDP2) needs PyTorch 2.6 or newer, this is {torch.__version__}")
finish()
