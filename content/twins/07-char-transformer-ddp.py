"""PyTorch twin of 07-char-transformer-ddp.ts: a small decoder-only, character-level transformer trained with
DistributedDataParallel on every rank's shard of each global batch, next to one device training on the whole batch.
Same init, same data, same Adam (torch.optim.Adam, which the playground's Adam copies operation for operation): the
losses and the final weights agree to float32 rounding.

Run: torchrun --nproc_per_node=4 07-char-transformer-ddp.py   (ranks_twin.py next to this file)
"""
import math
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from ranks_twin import Lcg, exponential, fixed, js_str, random_normal, say, start, finish

rank, world, device = start()
text = "Data parallelism copies the model to every rank and splits the batch. Each rank computes gradients on its own examples; an all-reduce averages them, and every replica takes the same step. Nothing about the mathematics changes: the average of the shard gradients is the gradient of the whole batch."
vocab = sorted(set(text))
V = len(vocab)
ids = torch.tensor([vocab.index(c) for c in text])
s, h, heads, layers, global_batch, steps = 24, 32, 4, 2, 8, 12
dh = h // heads
n = world
if global_batch % n != 0:
    raise SystemExit(f"global batch {global_batch} must divide by the world size {n}")
per = global_batch // n
causal = torch.triu(torch.ones(s, s), diagonal=1).mul(-1e9).to(device)  # 0 on and below the diagonal, −1e9 above


class CharTransformer(nn.Module):
    """Embeddings, pre-norm causal attention + 4h MLP blocks (LayerNorm without affine), output head."""

    def __init__(self):
        super().__init__()

        def r(shape, seed):
            return nn.Parameter(random_normal(shape, 0, 0.08, seed=seed))  # the same seeds on every rank

        ps = [r([V, h], 1), r([s, h], 2)]
        for l in range(layers):
            ps += [r([h, 3 * h], 10 + l), r([h, h], 20 + l), r([h, 4 * h], 30 + l), r([4 * h, h], 40 + l)]
        ps.append(r([h, V], 3))
        self.p = nn.ParameterList(ps)

    def forward(self, x):
        p, rows = self.p, x.shape[0]
        y = p[0][x] + p[1]  # an embedding lookup: the playground's one-hot × table
        for l in range(layers):
            wqkv, wo, w1, w2 = p[2 + 4 * l:6 + 4 * l]
            qkv = F.layer_norm(y, (h,), eps=1e-5) @ wqkv
            q, k, v = (qkv[:, :, i * h:(i + 1) * h].reshape(rows, s, heads, dh).transpose(1, 2) for i in range(3))
            att = (q @ k.transpose(-1, -2) / math.sqrt(dh) + causal).softmax(-1)
            y = y + (att @ v).transpose(1, 2).reshape(rows, s, h) @ wo
            y = y + F.relu(F.layer_norm(y, (h,), eps=1e-5) @ w1) @ w2
        return F.layer_norm(y, (h,), eps=1e-5) @ p[-1]


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


ddp = DistributedDataParallel(CharTransformer().to(device))  # gradients all-reduced (averaged) in backward
ddp_opt = torch.optim.Adam(ddp.parameters(), lr=3e-3)
single = CharTransformer().to(device)
single_opt = torch.optim.Adam(single.parameters(), lr=3e-3)
worst_loss_gap = first_loss = last_loss = 0.0
ddp_ms = single_ms = 0.0
for t in range(steps):
    x, y = batch(t)
    t0 = time.perf_counter()
    local = train_step(ddp, ddp_opt, x[rank * per:(rank + 1) * per], y[rank * per:(rank + 1) * per])  # this rank's shard
    ddp_ms += (time.perf_counter() - t0) * 1000
    total = torch.tensor([local], device=device)
    dist.all_reduce(total, op=dist.ReduceOp.SUM)  # equal shards: the mean of shard means is the batch mean
    global_loss = total.item() / n
    t1 = time.perf_counter()
    reference = train_step(single, single_opt, x, y)  # one device, the whole batch
    single_ms += (time.perf_counter() - t1) * 1000
    worst_loss_gap = max(worst_loss_gap, abs(global_loss - reference))
    if t == 0:
        first_loss = global_loss
    last_loss = global_loss
    if t % 4 == 0 or t == steps - 1:
        say(f"step {t:>2}: loss {fixed(global_loss, 4)} on {n} ranks, {fixed(reference, 4)} on one device")
weight_gap = max((a - b).abs().max().item() for a, b in zip(ddp.module.parameters(), single.parameters()))
count = sum(p.numel() for p in single.parameters())
say(f"vocabulary {V} characters, {count} parameters, DDP step {fixed(ddp_ms / steps, 0)} ms, one-device step {fixed(single_ms / steps, 0)} ms ({device.type})")
say(f"loss fell from {fixed(first_loss, 2)} to {fixed(last_loss, 2)}: {js_str(last_loss < first_loss - 0.5)}; largest loss gap {exponential(worst_loss_gap, 1)}, largest weight gap {exponential(weight_gap, 1)}")
say(f"DDP on {n} ranks matches one device (tolerance 1e-4): {js_str(weight_gap < 1e-4 and worst_loss_gap < 1e-4)}")
finish()
