"""PyTorch twin of 09-scale-ddp-fsdp.ts: the same data-parallel step, DDP and FSDP, on groups of 8, 16, 32, … ranks up
to the whole job. The groups smaller than the job run side by side on their own ranks (largest first), then the whole
job runs the same step. DDP is torch.nn.parallel.DistributedDataParallel on the group (it averages the gradients);
FSDP is written out as the playground writes it: every rank keeps 1/k of each unit (dim 0 padded to a multiple of k,
as FSDP2's Shard(0) pads), all-gathers the units before forward and again for backward, and reduce-scatters the
gradients (SUM, then ÷ k: Gloo has no AVG before 2.x), updating only its own shard. After one step FSDP's shard equals
the matching slice of DDP's weights.

Times: on its page the playground times a simulated cluster (virtual time on H100 nodes, each step charged as GPT-2
small at 8,192 tokens per GPU, up to 1,024 GPUs). This twin measures the machine it runs on: wall time with
time.perf_counter() after dist.barrier(), for the toy model. Start it with as many processes as the cluster you want to see (a group of 1,024 needs
1,024 processes: torchrun --nnodes=128 --nproc_per_node=8 on a real cluster); CI runs it at 2 ranks, where the only
group is the whole job.

Run: torchrun --nproc_per_node=4 09-scale-ddp-fsdp.py   (ranks_twin.py next to this file)
On CPUs (Gloo) the FSDP half needs PyTorch 2.3 or newer, whose Gloo has reduce_scatter_tensor and
all_gather_into_tensor; on older PyTorch (CI has 1.13) it runs DDP and prints n/a where FSDP's numbers go.
"""
import math

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from ranks_twin import fixed, js_str, random_normal, say, start, finish, wall_clock

rank, world, device = start()
tokens_per_gpu, units, d, vocab, rows, lr = 8 * 1024, 4, 32, 60, 4, 0.1
shapes = [(vocab, d)] + [(d, d)] * units
initial = [random_normal(list(s), 0, 0.2, seed=7 + u).to(device) for u, s in enumerate(shapes)]
X = random_normal([rows, vocab], 0, 1, seed=1 + rank).to(device)
Y = random_normal([rows, d], 0, 1, seed=100 + rank).to(device)
version = tuple(int(x) for x in torch.__version__.split("+")[0].split(".")[:2])
fsdp_available = device.type == "cuda" or version >= (2, 3)


def loss_of(ws):
    h = torch.tanh(X @ ws[0])
    for w in ws[1:]:
        h = torch.tanh(h @ w)
    return F.mse_loss(h, Y)


class Toy(nn.Module):
    def __init__(self):
        super().__init__()
        self.ws = nn.ParameterList([nn.Parameter(w.clone()) for w in initial])

    def forward(self):
        return loss_of(list(self.ws))


def ddp_step(group):
    model = DistributedDataParallel(Toy(), process_group=group)
    model().backward()  # the buckets' all-reduces average the gradients over the group
    with torch.no_grad():
        return [w - lr * w.grad for w in model.module.ws]


def padded(t, k):
    flat = t.reshape(-1)
    return F.pad(flat, (0, math.ceil(flat.numel() / k) * k - flat.numel()))


def fsdp_step(group, k, me):
    shards = [padded(w, k).chunk(k)[me].clone() for w in initial]

    def gather(u):
        out = torch.empty(shards[u].numel() * k, device=device)
        dist.all_gather_into_tensor(out, shards[u], group=group)
        return out[: initial[u].numel()].reshape(shapes[u])

    full = [gather(u).requires_grad_() for u in range(len(shapes))]  # forward: the root, then unit 1, 2, …
    loss_of(full).backward()
    for u in reversed(range(1, len(shapes))):
        gather(u)  # backward gathers the units again (reshard_after_forward=True), as the playground does
    nxt = [None] * len(shapes)
    for u in reversed(range(len(shapes))):
        mine = torch.empty_like(shards[u])
        dist.reduce_scatter_tensor(mine, padded(full[u].grad, k), op=dist.ReduceOp.SUM, group=group)
        nxt[u] = shards[u] - lr * (mine / k)
    return nxt


sizes = [k for k in (8, 16, 32, 64, 128, 256, 512) if k < world] + [world]
# Phases of groups side by side, as the playground places them: largest first, a new phase when the ranks run out.
phases = []
for size in reversed(sizes[:-1]):
    phase = next((p for p in phases if world - sum(g[0] for g in p) >= size), None)
    if phase is None:
        phase = []
        phases.append(phase)
    phase.append((size, sum(g[0] for g in phase)))
phases.append([(world, 0)])

times = torch.zeros(2 * len(sizes), dtype=torch.float64, device=device)
agree = 0.0
for phase in phases:
    # Every rank makes every group, in the same order, as torch.distributed.new_group requires.
    groups = [(size, first, dist.new_group(list(range(first, first + size)))) for size, first in phase]
    mine = next(((s, f, g) for s, f, g in groups if f <= rank < f + s), None)
    if mine is not None:
        size, first, group = mine
        at = sizes.index(size)
        dist.barrier(group=group)
        t0 = wall_clock(device)
        ddp_next = ddp_step(group)
        t1 = wall_clock(device)
        fsdp_next = fsdp_step(group, size, rank - first) if fsdp_available else None
        t2 = wall_clock(device)
        if rank == first:
            times[at] = t1 - t0
            times[len(sizes) + at] = t2 - t1
        if fsdp_next is not None:
            for u, shard in enumerate(fsdp_next):
                n = shard.numel()
                part = padded(ddp_next[u], size)[(rank - first) * n : (rank - first + 1) * n]
                agree = max(agree, (part - shard).abs().max().item())
    dist.barrier()  # the next phase starts together

dist.all_reduce(times, op=dist.ReduceOp.SUM)
gap = torch.tensor([agree], dtype=torch.float64, device=device)
dist.all_reduce(gap, op=dist.ReduceOp.MAX)
ddp_t, fsdp_t = times[: len(sizes)].tolist(), times[len(sizes) :].tolist()
say("times: wall clock, measured on this machine (the toy model, not GPT-2)")
for i, k in enumerate(sizes):
    nodes = 1  # torchrun's processes on one machine; the playground counts the cluster's nodes
    where = f"{k:>4} GPUs on {nodes:>3} node{' ' if nodes == 1 else 's'}"
    fsdp_text = f"{fixed(fsdp_t[i] * 1000, 1)} ms, {fixed(fsdp_t[0] / fsdp_t[i] * 100, 0)} %" if fsdp_available else "n/a, n/a"
    say(f"{where}: DDP step {fixed(ddp_t[i] * 1000, 1)} ms, scaling efficiency {fixed(ddp_t[0] / ddp_t[i] * 100, 0)} %; FSDP step {fsdp_text}")
last = len(sizes) - 1
if last > 0:
    verdict = js_str(fsdp_t[0] / fsdp_t[last] < ddp_t[0] / ddp_t[last]) if fsdp_available else "n/a"
    say(f"FSDP loses more efficiency than DDP on {world} GPUs: {verdict}")
say(f"FSDP's weights equal DDP's after one step, in every group: {js_str(gap.item() <= 1e-6) if fsdp_available else 'n/a'}")
finish()
