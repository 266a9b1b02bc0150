"""PyTorch twin of 06-fsdp-units.ts: FSDP2's fully_shard on a 6-layer MLP, every parameter sharded on dim 0, each
Linear one unit. One training step under torch.profiler, then the trace FSDP2 marks with record_function
("FSDP::all_gather (0)", "FSDP::post_forward (0)", "FSDP::post_backward_reduce (0)", … in
torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py and _fsdp_state.py): when each unit's all-gather was issued,
where the reduce-scatters went out, and how many units were unsharded at once. Times are the CPU's issue order; on
GPUs the collectives then run on their own streams.

Run: torchrun --nproc_per_node=4 06-fsdp-units.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 2.6 or newer, as on GPUs: fully_shard (FSDP2) is public in torch.distributed.fsdp from 2.6. It gets its mesh from ranks_twin.fsdp_mesh (fully_shard's default mesh follows the accelerator the wheel was built for, not the machine), and on Gloo an FSDPModule with set_force_sum_reduction_for_comms (ranks_twin.fsdp_gloo_sum). PyTorch 1.13 has no FSDP2, so CI checks this twin's names only.
"""
import re

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.fsdp import fully_shard
from torch.profiler import profile

from ranks_twin import Lcg, fixed, fsdp_gloo_sum, fsdp_mesh, js_str, mlp, say, start, finish

rank, world, device = start()
widths, lr = [64, 64, 64, 64, 64, 64, 64], 0.05
data = Lcg(3)  # same data on every rank, then each rank takes its rows
x = data.fill(8 * 64).reshape(8, 64).to(device)
y = data.fill(8 * 64).reshape(8, 64).to(device)
rows = [i for i in range(8) if i % world == rank]
xs, ys = x[rows], y[rows]


model = mlp(widths, 7, device)  # the playground's mlp(widths, { seed: 7 })
linears = [(name, m) for name, m in model.named_children() if isinstance(m, nn.Linear)]
mesh = fsdp_mesh(device)
for _, layer in linears:
    fully_shard(layer, mesh=mesh, reshard_after_forward=True)  # one unit per layer: its parameters become dim-0 DTensor shards
    fsdp_gloo_sum(layer, device)
fully_shard(model, mesh=mesh, reshard_after_forward=True)  # the root unit (no parameters of its own)
fsdp_gloo_sum(model, device)
# Prefetch one unit ahead: in forward the next unit's all-gather goes out as this one starts; backward prefetches
# the unit before (FSDP2 does that one by default too).
for i, (_, layer) in enumerate(linears):
    if i + 1 < len(linears):
        layer.set_modules_to_forward_prefetch([linears[i + 1][1]])
    if i > 0:
        layer.set_modules_to_backward_prefetch([linears[i - 1][1]])
optimizer = torch.optim.SGD(model.parameters(), lr=lr)

with profile() as prof:
    F.mse_loss(model(xs), ys).backward()
    optimizer.step()

# The trace, in time order: FSDP2's spans, named "FSDP::what (unit's module name)".
unit_of = {name: u for u, (name, _) in enumerate(linears)}
spans = []
for e in prof.events():
    m = re.fullmatch(r"FSDP::(\w+) \((\w+)\)", e.name)
    if m and m.group(2) in unit_of:
        spans.append((e.time_range.start / 1000, e.time_range.end / 1000, m.group(1), unit_of[m.group(2)]))
spans.sort()
if rank == 0:
    t0 = spans[0][0]
    for s, e, what, u in spans:
        say(f"{fixed(s - t0, 1):>7} ms  {what} unit {u} starts")
        say(f"{fixed(e - t0, 1):>7} ms  {what} unit {u} ends")

units = len(linears)
gathers = [[s for s, _, what, v in spans if what == "all_gather" and v == u] for u in range(units)]  # forward, then backward
forward_end = [next(s for s, _, what, v in spans if what == "post_forward" and v == u) for u in range(units)]
backward_end = [next(s for s, _, what, v in spans if what == "post_backward_reduce" and v == u) for u in range(units)]
early_forward = sum(gathers[i + 1][0] < forward_end[i] for i in range(units - 1))
early_backward = sum(len(gathers[i]) > 1 and gathers[i][-1] < backward_end[i + 1] for i in range(units - 1))
scatters = [s for s, _, what, _ in spans if what == "post_backward_reduce"]
during_backward = sum(s < backward_end[0] for s in scatters)
# Units unsharded at once: an all-gather's issue opens one, the reshard after forward (in post_forward) or after
# backward (in post_backward, before the reduce) closes it.
live = peak = 0
for _, delta in sorted([(s, 1) for s, _, what, _ in spans if what == "all_gather"] +
                       [(e, -1) for _, e, what, _ in spans if what == "post_forward"] +
                       [(s, -1) for s, _, what, _ in spans if what == "post_backward_reduce"]):
    live += delta
    peak = max(peak, live)
say(f"rank {rank}: all-gathers issued before the neighbouring unit finished computing: forward {early_forward} of {units - 1}, backward {early_backward} of {units - 1}")
say(f"rank {rank}: {len(scatters)} reduce-scatters, {during_backward} of them issued while backward was still running; at most {peak} of {units} units unsharded at once")

# The result equals one device training on all 8 rows.
single = mlp(widths, 7, device)
F.mse_loss(single(x), y).backward()
torch.optim.SGD(single.parameters(), lr=lr).step()
mine = dict(model.named_parameters())
diff = max((mine[k].full_tensor() - p).abs().max().item() for k, p in single.named_parameters())
say(f"rank {rank}: matches single-device training: {js_str(diff < 1e-5)}")
finish()
