"""PyTorch twin of 06-fsdp-prefetch.ts: FSDP2's fully_shard on a 6-layer MLP, each Linear one unit, trained twice on
the same data: once with explicit prefetch one unit ahead in both directions (FSDPModule.set_modules_to_forward_prefetch
and set_modules_to_backward_prefetch, torch/distributed/fsdp/_fully_shard/_fully_shard.py), once with empty lists.
Empty lists turn off forward prefetch; backward prefetch cannot be turned off in FSDP2: with no explicit list it
prefetches the unit before by default (_fsdp_state.py, _pre_backward, default_prefetch). Prefetch moves when the
all-gathers start, not what they carry, so the weights come out the same bits either way, and equal to one device.

Times: on its page the playground times a simulated cluster (virtual time, each step charged as a 7B-parameter
model on four A100s, and the exposed communication read off its trace).
This twin measures the machine it runs on: wall time with time.perf_counter() after dist.barrier(); on GPUs,
torch.profiler shows what the prefetch hides.

Run: torchrun --nproc_per_node=4 06-fsdp-prefetch.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 2.6 or newer, as on GPUs: fully_shard (FSDP2) is public in torch.distributed.fsdp from 2.6. It gets its mesh from ranks_twin.fsdp_mesh (fully_shard's default mesh follows the accelerator the wheel was built for, not the machine), and on Gloo an FSDPModule with set_force_sum_reduction_for_comms (ranks_twin.fsdp_gloo_sum). PyTorch 1.13 has no FSDP2, so CI checks this twin's names only.
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.fsdp import fully_shard

from ranks_twin import Lcg, fixed, fsdp_gloo_sum, fsdp_mesh, js_str, mlp, say, start, finish, wall_clock

rank, world, device = start()
widths, rows, steps, lr = [64, 64, 64, 64, 64, 64, 64], 16, 2, 0.05
data = Lcg(5)  # the same batch on every rank; each rank trains on its own rows
x = data.fill(rows * widths[0]).reshape(rows, widths[0]).to(device)
y = data.fill(rows * widths[-1]).reshape(rows, widths[-1]).to(device)
mine = [i for i in range(rows) if i % world == rank]
xs, ys = x[mine], y[mine]


def run(prefetch):
    """Trains `steps` steps; returns the mean step time and the full weights."""
    model = mlp(widths, 7, device)  # the playground's mlp(widths, { seed: 7 })
    linears = [m for m in model if isinstance(m, nn.Linear)]
    mesh = fsdp_mesh(device)
    for layer in linears:
        fully_shard(layer, mesh=mesh)  # one unit per layer: its parameters become dim-0 DTensor shards
        fsdp_gloo_sum(layer, device)
    fully_shard(model, mesh=mesh)  # the root unit (no parameters of its own)
    fsdp_gloo_sum(model, device)
    for i, layer in enumerate(linears):
        ahead = [linears[i + 1]] if prefetch and i + 1 < len(linears) else []
        behind = [linears[i - 1]] if prefetch and i > 0 else []
        layer.set_modules_to_forward_prefetch(ahead)
        layer.set_modules_to_backward_prefetch(behind)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    dist.barrier()
    t = wall_clock(device)
    for _ in range(steps):
        optimizer.zero_grad()
        F.mse_loss(model(xs), ys).backward()
        optimizer.step()
    seconds = (wall_clock(device) - t) / steps
    return seconds, {k: p.full_tensor() for k, p in model.named_parameters()}


def ms(seconds):
    return f"{fixed(seconds * 1000, 1)} ms"


on, on_weights = run(True)
off, off_weights = run(False)
say("real time on this machine: pick a cluster to see what prefetch hides")
say(f"prefetch on:  step {ms(on)}, exposed communication not measured")
say(f"prefetch off: step {ms(off)}, exposed communication not measured")
same = all(torch.equal(on_weights[k], off_weights[k]) for k in on_weights)
say(f"weights identical with prefetch on and off: {js_str(same)}")

# And both equal one device training on all the rows.
single = mlp(widths, 7, device)
optimizer = torch.optim.SGD(single.parameters(), lr=lr)
for _ in range(steps):
    optimizer.zero_grad()
    F.mse_loss(single(x), y).backward()
    optimizer.step()
diff = max((on_weights[k] - p).abs().max().item() for k, p in single.named_parameters())
say(f"matches single-device training: {js_str(diff < 1e-5)}")
finish()
