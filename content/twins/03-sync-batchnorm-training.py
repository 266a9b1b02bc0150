"""PyTorch twin of 03-sync-batchnorm-training.ts: with per-rank BatchNorm statistics DDP drifts from one device;
nn.SyncBatchNorm all-gathers every rank's statistics and lands on the single-device weights.

Run: torchrun --nproc_per_node=4 03-sync-batchnorm-training.py   (ranks_twin.py next to this file)
Needs CUDA GPUs: SyncBatchNorm.forward has no CPU path (1.13 takes CUDA tensors only; current PyTorch CUDA or other accelerator backends, never CPU), and this twin runs NCCL on CUDA.
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data.distributed import DistributedSampler

from ranks_twin import Lcg, exponential, js_str, require_cuda, say, start, finish

require_cuda("SyncBatchNorm", "torch/nn/modules/batchnorm.py, SyncBatchNorm.forward")
rank, world, device = start()
sizes, rows, steps, lr = (4, 8, 3), 16, 5, 0.1  # the book's reference MLP (playground/parallel/reference-mlp.ts)


def reference_model():
    """4 → 8 (BatchNorm, tanh) → 3 with the book's fixed weights: Linear parameters from Lcg(1) × 0.5, in order."""
    model = nn.Sequential(nn.Linear(sizes[0], sizes[1]), nn.BatchNorm1d(sizes[1]), nn.Tanh(), nn.Linear(sizes[1], sizes[2]))
    rng = Lcg(1)
    with torch.no_grad():
        for layer in model:
            if isinstance(layer, nn.Linear):
                for p in layer.parameters():
                    p.copy_(rng.fill(p.numel(), 0.5).reshape(p.shape))
    return model.to(device)


data = Lcg(2)
x = data.fill(rows * sizes[0]).reshape(rows, sizes[0]).to(device)
y = data.fill(rows * sizes[2]).reshape(rows, sizes[2]).to(device)
idx = list(DistributedSampler(range(rows), num_replicas=world, rank=rank, shuffle=False))
xs, ys = x[idx], y[idx]


def train(model, inputs, targets):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        F.mse_loss(model(inputs), targets).backward()
        opt.step()
    inner = model.module if isinstance(model, DDP) else model
    return {k: v.detach() for k, v in inner.named_parameters()}


# The yardstick: one device, BatchNorm over all 16 rows.
target = train(reference_model(), x, y)


def max_gap(sync):
    model = reference_model()
    if sync:
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    ddp = DDP(model, device_ids=[device.index], broadcast_buffers=False)
    mine = train(ddp, xs, ys)
    return max((mine[k] - target[k]).abs().max().item() for k in target)


local = max_gap(False)
synced = max_gap(True)
say(f"rank {rank} holds {len(idx)} of {rows} rows")
say(f"per-rank BatchNorm: max |w - w_single| = {exponential(local, 2)}, matches: {js_str(local < 1e-5)}")
say(f"SyncBatchNorm:      max |w - w_single| = {exponential(synced, 2)}, matches: {js_str(synced < 1e-5)}")
finish()
