"""PyTorch twin of 08-batch-and-lr.ts: the same linear model and data trained for the same number of epochs at global
batch 32 to 2048 over the ranks: with the base learning rate, with the rate scaled by √k, and scaled linearly by k
with a warm-up (Goyal et al. 2017, "Accurate, Large Minibatch SGD", §2.1 and §2.2). Every rank computes the gradient
of its shard of each global batch; an all-reduce averages them, as DDP would.

Run: torchrun --nproc_per_node=4 08-batch-and-lr.py   (ranks_twin.py next to this file)
"""
import math

import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import fixed, js_str, random_normal, say, start, finish

rank, world, device = start()
n, d, examples, epochs = world, 16, 4096, 2
base_batch, base_lr, warmup_fraction = 32, 0.01, 0.25
X = random_normal([examples, d], 0, 1.5, seed=1).to(device)
w_true = random_normal([d, 1], 0, 1, seed=2).to(device)
Y = X @ w_true + random_normal([examples, 1], 0, 0.5, seed=3).to(device)  # noisy linear targets


def loss_on(w, x, y):
    return F.mse_loss(x @ w, y)


def grad(w, x, y):
    w = w.clone().requires_grad_()
    loss_on(w, x, y).backward()
    return w.grad


def train(batch, rule):
    per, steps = batch // n, epochs * examples // batch
    k = batch / base_batch
    peak = base_lr * k if rule == "linear" else base_lr * math.sqrt(k) if rule == "sqrt" else base_lr
    warmup = 0 if rule == "base" else max(1, math.floor(warmup_fraction * steps + 0.5))  # Math.round
    w = torch.zeros(d, 1, device=device)
    for step in range(steps):
        lr = peak * (step + 1) / warmup if step < warmup else peak
        first = (step % (examples // batch)) * batch + rank * per  # this rank's slice of the global batch
        g = grad(w, X[first:first + per], Y[first:first + per])
        dist.all_reduce(g, op=dist.ReduceOp.SUM)  # Gloo has no AVG: sum, then divide
        w = w - (g / n) * lr
    return {"batch": batch, "rule": rule, "steps": steps, "peak": peak, "warmup": warmup, "loss": loss_on(w, X, Y).item()}


runs = [train(base_batch, "base")]
for batch in (128, 512):
    for rule in ("base", "sqrt", "linear"):
        runs.append(train(batch, rule))
runs.append(train(2048, "linear"))
ref = runs[0]["loss"]
say("global batch | per rank | rule   | steps | peak lr | warm-up | final loss")
for r in runs:
    say(f"{r['batch']:>12} | {r['batch'] // n:>8} | {r['rule']:<6} | {r['steps']:>5} | {fixed(r['peak'], 2):>7} | {r['warmup']:>7} | {fixed(r['loss'], 3)}")


def at(batch, rule):
    return next(r["loss"] for r in runs if r["batch"] == batch and r["rule"] == rule)


say(f"batch 512 at the base rate falls behind: {js_str(at(512, 'base') > 2 * ref)}")
say(f"√k scaling helps but is not enough for plain SGD: {js_str(at(512, 'sqrt') < at(512, 'base') and at(512, 'sqrt') > 1.1 * ref)}")
say(f"batch 512 with linear scaling and warm-up comes within 10% of batch 32: {js_str(abs(at(512, 'linear') - ref) / ref < 0.1)}")
untrained = loss_on(torch.zeros(d, 1, device=device), X, Y).item()
say(f"batch 2048 at the linearly scaled rate diverges: {js_str(at(2048, 'linear') > untrained)} (rate {fixed(runs[-1]['peak'], 2)}, untrained loss {fixed(untrained, 1)})")
finish()
