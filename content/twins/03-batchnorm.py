"""PyTorch twin of 03-batchnorm.ts: local BatchNorm statistics differ per rank; all-reduced ones match one device.
This is the arithmetic nn.SyncBatchNorm does (see 06-sync-batchnorm.py for the module itself, which needs GPUs).

Run: torchrun --nproc_per_node=4 03-batchnorm.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist

from ranks_twin import fixed, js_str, random_normal, say, start, finish

rank, world, device = start()
n, r, rows, features, eps = world, rank, 4, 3, 1e-5
# Each rank's rows come from a differently shifted distribution, as shards often do.
all_rows = random_normal([n * rows, features], 0, 1, seed=41).to(device)
shift = (torch.arange(n * rows, device=device) // rows).reshape(n * rows, 1).float()
X = all_rows + shift  # rows of rank k are shifted by k
mine = X[r * rows:(r + 1) * rows]


def normalize(x, mean, variance):
    return (x - mean) / (variance + eps).sqrt()


def moments(x):
    mean = x.mean(0)
    return mean, (x - mean).square().mean(0)  # biased variance, as BatchNorm normalizes with


# One device: statistics over the whole batch.
g_mean, g_var = moments(X)
reference = normalize(mine, g_mean, g_var)

# Local BatchNorm: statistics over this rank's rows only (what plain DDP does).
l_mean, l_var = moments(mine)
local = normalize(mine, l_mean, l_var)

# SyncBatchNorm: all-reduce the count, the sum and the sum of squares, then derive mean and variance.
stats = torch.cat([torch.tensor([float(rows)], device=device), mine.sum(0), mine.square().sum(0)])
dist.all_reduce(stats, op=dist.ReduceOp.SUM)
count, total, total_sq = stats[0:1], stats[1:1 + features], stats[1 + features:1 + 2 * features]
s_mean = total / count
s_var = total_sq / count - s_mean.square()
synced = normalize(mine, s_mean, s_var)

local_gap = (local - reference).abs().max().item()
sync_gap = (synced - reference).abs().max().item()
say(f"rank {r}: local mean {','.join(fixed(v, 2) for v in l_mean.tolist())} vs global {','.join(fixed(v, 2) for v in g_mean.tolist())}")
say(f"rank {r}: local BatchNorm matches one device: {js_str(local_gap < 1e-4)} (gap {fixed(local_gap, 3)})")
say(f"rank {r}: sync BatchNorm matches one device: {js_str(sync_gap < 1e-4)}")
finish()
