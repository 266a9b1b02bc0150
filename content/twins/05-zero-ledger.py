"""PyTorch twin of 05-zero-ledger.ts: DDP and ZeRO-1/2/3 by hand on one flat parameter vector, with Adam. Each rank
keeps a ledger of the bytes it holds between steps and counts the bytes it sends.
ZeRO-1 twice: with reduce-scatter + all-gather (as the ZeRO paper describes it), and as PyTorch's
ZeroRedundancyOptimizer does it
(torch/distributed/optim/zero_redundancy_optimizer.py: DDP's all-reduce, then _sync_params broadcasts each rank's
updated parameters from that rank). The real ZeroRedundancyOptimizer partitions whole parameters among ranks, so on
this one flat vector it would give everything to one rank; the shard-by-hand version keeps the ledger comparable.
FSDP2's fully_shard is ZeRO-3 (see 06-fsdp-units.py).

Run: torchrun --nproc_per_node=4 05-zero-ledger.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 2.3 or newer, whose Gloo has reduce_scatter_tensor and all_gather_into_tensor.
"""
import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import fixed, js_str, random_normal, say, start, finish

rank, world, device = start()
psi, rows, n, lr = 1 << 16, 4, world, 1e-3
shard = psi // n
X = random_normal([rows, psi], 0, 1, seed=10 + rank).to(device)
y = random_normal([rows, 1], 0, 1, seed=20 + rank).to(device)
w0 = random_normal([psi], 0, 0.01, seed=1).to(device)  # same seed on every rank

# Neither NCCL nor Gloo reports bytes sent, so count what a ring sends per rank (nccl-tests PERFORMANCE.md):
# all-reduce 2(n−1)/n·D, reduce-scatter and all-gather (n−1)/n·D, D the bytes of the full tensor.
sent = 0


def all_reduce_avg(t):
    global sent
    out = t.clone()
    dist.all_reduce(out, op=dist.ReduceOp.SUM)
    sent += 2 * (n - 1) / n * out.numel() * 4
    return out / n


def reduce_scatter_avg(t):
    global sent
    out = torch.empty(t.numel() // n, device=device)
    dist.reduce_scatter_tensor(out, t, op=dist.ReduceOp.SUM)
    sent += (n - 1) / n * t.numel() * 4
    return out / n


def gather(part):
    global sent
    out = torch.empty(part.numel() * n, device=device)
    dist.all_gather_into_tensor(out, part)
    sent += (n - 1) / n * out.numel() * 4
    return out


def broadcast_from(src, t):
    """The source sends D to each of the n − 1 others; over the n broadcasts of a step every rank sends (n−1)·D,
    as much as a ring pipeline (each rank forwarding D to its neighbour) would."""
    global sent
    dist.broadcast(t, src=src)
    if src == rank:
        sent += (n - 1) * t.numel() * 4
    return t


def loss(w):
    return F.mse_loss(X @ w.reshape(psi, 1), y)


def grad(w):
    w = w.clone().requires_grad_()
    loss(w).backward()
    return w.grad


def mine(t):
    return t[rank * shard:(rank + 1) * shard]


def adam(w, g, m, v, t):
    """One Adam step on whichever slice of the state this rank owns."""
    m2 = m * 0.9 + g * 0.1
    v2 = v * 0.999 + g.square() * 0.001
    step = (m2 / (1 - 0.9**t)) / ((v2 / (1 - 0.999**t)).sqrt() + 1e-8) * lr
    return w - step, m2, v2


def train(variant, steps):
    global sent
    stage = 1 if variant == "1-torch" else variant
    before = sent
    full = stage < 3  # ZeRO-3 keeps only a shard of the parameters
    w = w0.clone() if full else mine(w0).clone()
    m = torch.zeros(shard if stage >= 1 else psi, device=device)
    v = torch.zeros(shard if stage >= 1 else psi, device=device)
    g = torch.zeros(shard if stage >= 2 else psi, device=device)
    for t in range(1, steps + 1):
        if stage == 0:
            g = all_reduce_avg(grad(w))
            w, m, v = adam(w, g, m, v, t)
        elif variant == "1-torch":
            g = all_reduce_avg(grad(w))  # DDP's full all-reduce
            w_shard, m, v = adam(mine(w), mine(g), m, v, t)
            # Every rank broadcasts the shard it updated; the others receive it.
            w = torch.cat([broadcast_from(src, w_shard if src == rank else torch.zeros(shard, device=device)) for src in range(n)])
        elif stage < 3:
            local = grad(w)
            g_shard = reduce_scatter_avg(local)
            w_shard, m, v = adam(mine(w), g_shard, m, v, t)
            w = gather(w_shard)  # share the updated parameters; optimizer state stays put
            g = local if stage == 1 else g_shard  # ZeRO-1 keeps its full gradient buffer
        else:
            loss(gather(w))  # forward, then free
            local = grad(gather(w))  # backward
            g = reduce_scatter_avg(local)
            w, m, v = adam(w, g, m, v, t)
    moved = (sent - before) / 4 / steps  # elements sent per step
    ledger = {"params": w.numel() * 4, "grads": g.numel() * 4, "optimizer": (m.numel() + v.numel()) * 4}
    total = sum(ledger.values())
    label = {0: "DDP           ", 1: "ZeRO-1 (RS+AG)", "1-torch": "ZeRO-1 (AR+BC)", 2: "ZeRO-2        ", 3: "ZeRO-3        "}[variant]
    say(f"{label} holds {total} B = {fixed(total / psi, 2)} B/param "
        f"(params {ledger['params']}, grads {ledger['grads']}, optimizer {ledger['optimizer']}); "
        f"sends {fixed(moved / psi, 2)}Ψ per step")
    return moved, (w if full else gather(w))


ddp = train(0, 3)
zero1, zero1_torch, zero2, zero3 = train(1, 3), train("1-torch", 3), train(2, 3), train(3, 3)
results = [ddp, zero1, zero1_torch, zero2, zero3]
max_diff = max((weights - ddp[1]).abs().max().item() for _, weights in results)
say(f"rank {rank}: every stage reaches the same weights as DDP: {js_str(max_diff < 1e-5)}")
if ddp[0] == 0:
    say("one rank sends nothing: pick 2 or more ranks to compare communication")
else:
    def ratio(result):
        return f"{fixed(result[0] / ddp[0], 2)}x"
    say(f"ZeRO-1 / DDP communication: {ratio(zero1)} with reduce-scatter + all-gather, {ratio(zero1_torch)} as ZeroRedundancyOptimizer (all-reduce + broadcast)")
    say(f"ZeRO-3 / DDP communication: {ratio(zero3)}")
finish()
