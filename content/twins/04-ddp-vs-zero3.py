"""PyTorch twin of 04-ddp-vs-zero3.ts (exercise 6): DDP versus ZeRO-3 on the same model and batch. DDP all-reduces
the gradients once per step; ZeRO-3, in PyTorch FSDP2's fully_shard with every Linear one unit, all-gathers each
unit's parameters before its forward and again before its backward, then reduce-scatters its gradients: 1.5x the
bytes on the wire. The arithmetic is the same, so both losses agree with the playground's to float32 rounding.

Times: on its page the playground times a simulated cluster (virtual time, each step charged as a 7B-parameter
model on four H100s). This twin measures the machine it runs on: wall time with time.perf_counter() after
dist.barrier().

Run: torchrun --nproc_per_node=4 04-ddp-vs-zero3.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 2.6 or newer for its ZeRO-3 part, as on GPUs, and an FSDPModule with set_force_sum_reduction_for_comms (pytorch/pytorch#155915): FSDP2 averages fp32 gradients with a ReduceOp.AVG reduce-scatter (_fsdp_collectives.py, _get_gradient_divide_factors), which Gloo gets wrong on some versions (pytorch/pytorch#162338), so on Gloo the twin asks for SUM and FSDP2's own division. On older PyTorch (CI has 1.13) it runs DDP only and prints n/a where ZeRO-3's numbers go.
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from ranks_twin import fixed, fsdp_gloo_sum, fsdp_mesh, js_str, mlp, random_normal, say, say_clock, start, finish, wall_clock

# By version, not try/except: 1.13's torch.distributed.fsdp (FSDP1) fails to import on Python 3.11 with a ValueError.
if tuple(int(v) for v in torch.__version__.split("+")[0].split(".")[:2]) >= (2, 6):
    from torch.distributed.fsdp import FSDPModule, fully_shard
else:
    FSDPModule = fully_shard = None  # no public FSDP2 before 2.6

rank, world, device = start()
widths, rows, steps = [64, 128, 128, 128, 64], 8, 2
x = random_normal([rows, widths[0]], 0, 1, seed=1 + rank).to(device)
y = random_normal([rows, widths[-1]], 0, 1, seed=100 + rank).to(device)
gloo_safe = device.type == "cuda" or hasattr(FSDPModule, "set_force_sum_reduction_for_comms")
zero3_runs = fully_shard is not None and gloo_safe


def wrap(kind):
    model = mlp(widths, 1, device)
    if kind == "DDP":
        return DistributedDataParallel(model)
    units = [m for m in model if isinstance(m, nn.Linear)] + [model]  # bottom-up: each Linear, then the root
    mesh = fsdp_mesh(device)  # explicit: fully_shard's default follows the wheel's accelerator, not the machine
    for unit in units:
        fully_shard(unit, mesh=mesh)  # its parameters become dim-0 DTensor shards: ZeRO-3
        fsdp_gloo_sum(unit, device)  # per unit (not recursive): Gloo sums, FSDP2 divides
    return model


def step_seconds(kind):
    """Mean step time and the last step's loss."""
    model = wrap(kind)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

    def train_step():
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.item()

    train_step()  # DDP rebuilds its buckets after the first step
    dist.barrier()
    t = wall_clock(device)
    for _ in range(steps):
        loss = train_step()
    return (wall_clock(device) - t) / steps, loss


def ms(seconds):
    return f"{fixed(seconds * 1000, 1)} ms"


ddp, ddp_loss = step_seconds("DDP")
say_clock()
if zero3_runs:
    zero3, zero3_loss = step_seconds("ZeRO-3")
    say(f"DDP step {ms(ddp)}, ZeRO-3 step {ms(zero3)}: {fixed(zero3 / ddp, 2)}× as long")
    say(f"ZeRO-3's step is longer: {js_str(zero3 > ddp)}")
    zero3_text = fixed(zero3_loss, 4)
else:
    why = "fully_shard (FSDP2) needs PyTorch 2.6 or newer" if fully_shard is None else "Gloo needs FSDPModule.set_force_sum_reduction_for_comms"
    say(f"DDP step {ms(ddp)}, ZeRO-3 step n/a: {why}, this is {torch.__version__}")
    say("ZeRO-3's step is longer: n/a")
    zero3_text = "n/a"
# Sharding changes where the bytes live and when they move, not the arithmetic: the same training.
say(f"rank {rank}: loss at step {steps + 1}: DDP {fixed(ddp_loss, 4)}, ZeRO-3 {zero3_text}")
finish()
