"""PyTorch twin of 03-batchnorm.ts: ranks hold unequal numbers of rows; local BatchNorm statistics differ per rank,
synced ones match one device. The sync is the arithmetic nn.SyncBatchNorm's forward does (torch/nn/modules/_functions.py,
SyncBatchNorm.forward): all-gather each rank's (mean, invstd, count), with all_gather_into_tensor on NCCL and all_gather
elsewhere, then merge them weighted by count (batch_norm_gather_stats_with_counts). See 03-sync-batchnorm-training.py
for the module itself, which needs GPUs.

Run: torchrun --nproc_per_node=4 03-batchnorm.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist

from ranks_twin import fixed, js_str, random_normal, say, start, finish

rank, world, device = start()
n, r, features, eps = world, rank, 3, 1e-5


def rows_of(k):
    return 3 + k  # ranks hold different numbers of rows (3, 4, 5, …)


total = sum(rows_of(k) for k in range(n))
all_rows = random_normal([total, features], 0, 1, seed=41).to(device)
owner = torch.tensor([float(k) for k in range(n) for _ in range(rows_of(k))], device=device).reshape(total, 1)
X = all_rows + owner  # each rank's rows are shifted by its rank
first = sum(rows_of(k) for k in range(r))
mine = X[first:first + rows_of(r)]


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

# SyncBatchNorm as PyTorch does it: all-gather every rank's (mean, invstd, count), 2C + 1 values,
# then merge them weighted by count, since counts can differ.
own = torch.cat([l_mean, (l_var + eps).rsqrt(), torch.tensor([float(rows_of(r))], device=device)])
gathered = [torch.empty_like(own) for _ in range(n)]
dist.all_gather(gathered, own)
rows = [g.tolist() for g in gathered]
mean, m2, count = [0.0] * features, [0.0] * features, 0.0
for row in rows:
    c = row[2 * features]
    for i in range(features):
        m, v = row[i], 1 / row[features + i] ** 2 - eps  # back from invstd to the rank's variance
        m2[i] += v * c + (mean[i] - m) ** 2 * count * c / (count + c)  # Chan's pairwise merge
        mean[i] = (count * mean[i] + c * m) / (count + c)
    count += c
synced = normalize(mine, torch.tensor(mean, device=device), torch.tensor([v / count for v in m2], device=device))

local_gap = (local - reference).abs().max().item()
sync_gap = (synced - reference).abs().max().item()
say(f"rank {r}: {rows_of(r)} rows; gathered counts {', '.join(js_str(row[2 * features]) for row in rows)} = {js_str(count)} rows")
say(f"rank {r}: local mean {','.join(fixed(v, 2) for v in l_mean.tolist())} vs global {','.join(fixed(v, 2) for v in g_mean.tolist())}")
say(f"rank {r}: local BatchNorm matches one device: {js_str(local_gap < 1e-4)} (gap {fixed(local_gap, 3)})")
say(f"rank {r}: sync BatchNorm matches one device: {js_str(sync_gap < 1e-4)}")
finish()
