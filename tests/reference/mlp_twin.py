"""PyTorch twin of the book's fixed MLP: the numbers the TypeScript data-parallel trainers must reproduce.

Single process:   /usr/bin/python3 tests/reference/mlp_twin.py --single OUT.json
Distributed:      /usr/bin/python3 -m torch.distributed.run --nproc_per_node 2 --redirects 1 --tee 1 \
                      tests/reference/mlp_twin.py --distributed OUT.json
(tests/reference/regenerate.py runs all of them and writes mlp-reference.json.)

Model 4 -> 8 (tanh) -> 3, MSE loss (mean), 16 fixed rows, 5 steps of SGD (lr 0.1) and Adam (lr 0.01).
Weights and data come from a 32-bit LCG whose outputs are exact float32 values, so the TypeScript side
(playground/parallel/reference-mlp.ts) rebuilds them bit for bit without reading this file.

Not covered here, on purpose: FullyShardedDataParallel and SyncBatchNorm need CUDA/NCCL in torch 1.13
(FSDP's CPU path and SyncBatchNorm's CPU forward raise), so the TypeScript FSDP and SyncBatchNorm are
checked against single-device training instead; the single-process run includes a plain BatchNorm1d
model ("single-bn/sgd") so that chain still ends at real PyTorch.
"""
import json
import os
import sys

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

# The LCG lives once, in the twins' shared helper (playground/parallel/lcg.ts is its TypeScript side).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "content", "twins"))
from ranks_twin import Lcg  # noqa: E402

SIZES = (4, 8, 3)
ROWS = 16
STEPS = 5
PARAM_SEED = 1
DATA_SEED = 2
OPTIMIZERS = {"sgd": 0.1, "adam": 0.01}


def build_model(batch_norm=False):
    torch.manual_seed(0)
    hidden = [nn.BatchNorm1d(SIZES[1])] if batch_norm else []
    model = nn.Sequential(nn.Linear(SIZES[0], SIZES[1]), *hidden, nn.Tanh(), nn.Linear(SIZES[1], SIZES[2]))
    rng = Lcg(PARAM_SEED)
    with torch.no_grad():
        for layer in model:  # Linear parameters in registration order; BatchNorm keeps its defaults (1, 0)
            if isinstance(layer, nn.Linear):
                for p in layer.parameters():
                    p.copy_(rng.fill(p.numel(), 0.5).reshape(p.shape))
    return model


def build_data():
    rng = Lcg(DATA_SEED)
    x = rng.fill(ROWS * SIZES[0]).reshape(ROWS, SIZES[0])
    y = rng.fill(ROWS * SIZES[2]).reshape(ROWS, SIZES[2])
    return x, y


def snapshot(model):
    return {name: p.detach().reshape(-1).tolist() for name, p in model.named_parameters()}


def buffers(model):
    return {name: b.detach().reshape(-1).tolist() for name, b in model.named_buffers() if b.dtype.is_floating_point}


def make_optimizer(kind, params, lr, zero):
    cls = torch.optim.SGD if kind == "sgd" else torch.optim.Adam
    if zero:
        from torch.distributed.optim import ZeroRedundancyOptimizer
        return ZeroRedundancyOptimizer(params, optimizer_class=cls, lr=lr)
    return cls(params, lr=lr)


def train(model, x, y, kind, zero=False):
    """Runs STEPS full steps; returns [{loss, params}] after each step (loss before the update)."""
    opt = make_optimizer(kind, model.parameters(), OPTIMIZERS[kind], zero)
    history = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        inner = model.module if hasattr(model, "module") else model
        history.append({"loss": loss.item(), "params": snapshot(inner)})
    return history


def run_single(out_path):
    x, y = build_data()
    model = build_model()
    result = {
        "sizes": list(SIZES),
        "rows": ROWS,
        "steps": STEPS,
        "lr": OPTIMIZERS,
        "x": x.reshape(-1).tolist(),
        "y": y.reshape(-1).tolist(),
        "initial": snapshot(model),
        "runs": {},
    }
    result["buffers"] = {}
    for kind in OPTIMIZERS:
        result["runs"][f"single/{kind}"] = train(build_model(), x, y, kind)
    # Plain BatchNorm1d runs on CPU (only SyncBatchNorm needs CUDA): the yardstick for sync-BatchNorm. SGD only:
    # the Linear bias before BatchNorm has an exactly-zero gradient, which Adam would turn into ±lr steps of float noise.
    bn_model = build_model(batch_norm=True)
    result["runs"]["single-bn/sgd"] = train(bn_model, x, y, "sgd")
    result["buffers"]["single-bn/sgd"] = buffers(bn_model)
    with open(out_path, "w") as f:
        json.dump(result, f)


def run_distributed(out_path):
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data.distributed import DistributedSampler

    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    x, y = build_data()
    # Strided shards, as DistributedSampler(shuffle=False) deals them: rank r gets rows r, r+W, ...
    idx = list(DistributedSampler(range(ROWS), num_replicas=world, rank=rank, shuffle=False))
    xs, ys = x[idx], y[idx]
    runs = {}
    for kind in OPTIMIZERS:
        for zero in (False, True):
            ddp = DDP(build_model())
            history = train(ddp, xs, ys, kind, zero=zero)
            for h in history:  # report the full-batch loss: mean of the equal-shard losses
                t = torch.tensor([h["loss"]])
                dist.all_reduce(t)
                h["loss"] = t.item() / world
            runs[f"{'zero1' if zero else 'ddp'}-{world}/{kind}"] = history
    if rank == 0:
        with open(out_path, "w") as f:
            json.dump({"world": world, "shards": [list(range(r, ROWS, world)) for r in range(world)], "runs": runs}, f)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    torch.set_num_threads(1)
    mode, out = sys.argv[1], sys.argv[2]
    if mode == "--single":
        run_single(out)
    elif mode == "--distributed":
        run_distributed(out)
    else:
        sys.exit(f"unknown mode {mode}")
