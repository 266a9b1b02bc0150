"""PyTorch twin of 09-hsdp.ts: the same step sharded two ways. FULL_SHARD keeps 1/world of every unit on each rank and
all-gathers and reduce-scatters over every rank; HSDP keeps 1/(ranks per node) and does both within the node, then
all-reduces each rank's shard across the nodes (the ranks with the same local index). Written out with collectives as
the playground writes it. With FSDP2 the same two are fully_shard(module, mesh=init_device_mesh(device, (world,)))
and fully_shard(module, mesh=init_device_mesh(device, (nodes, gpus_per_node), mesh_dim_names=("replicate",
"shard"))): "If 2D, then parameters are sharded across the 1st dim and replicated across the 0th dim (HSDP)"
(torch/distributed/fsdp/_fully_shard/_fully_shard.py, fully_shard docstring). After one step HSDP's shard equals the
matching slice of FULL_SHARD's weights.

Times: on its page the playground times a simulated cluster (virtual time on H100 nodes, each step charged as Llama 2
7B at 4,096 tokens per GPU). This twin measures the machine it runs on: wall time with time.perf_counter() after
dist.barrier(), for the toy model. It takes the node size from torchrun (LOCAL_WORLD_SIZE): on one machine there is
one node, and HSDP's mesh is 1 × world.

Run: torchrun --nproc_per_node=4 09-hsdp.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 2.3 or newer, whose Gloo has reduce_scatter_tensor and all_gather_into_tensor; on
older PyTorch (CI has 1.13) it prints n/a for both steps and the weight check.
"""
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import fixed, js_str, random_normal, say, start, finish, wall_clock

rank, world, device = start()
llama2_7b, tokens_per_gpu, units, d, rows, lr = 6_738_415_616, 4096, 4, 32, 4, 0.1
per_node = int(os.environ.get("LOCAL_WORLD_SIZE", world))
nodes = world // per_node
initial = [random_normal([d, d], 0, 0.2, seed=7 + u).to(device) for u in range(units + 1)]
X = random_normal([rows, d], 0, 1, seed=1 + rank).to(device)
Y = random_normal([rows, d], 0, 1, seed=100 + rank).to(device)
version = tuple(int(x) for x in torch.__version__.split("+")[0].split(".")[:2])
available = device.type == "cuda" or version >= (2, 3)


def loss_of(ws):
    h = X
    for w in ws:
        h = torch.tanh(h @ w)
    return F.mse_loss(h, Y)


def step(shard, k, me, replicate):
    shards = [w.reshape(-1).chunk(k)[me].clone() for w in initial]

    def gather():
        out = []
        for s in shards:
            whole = torch.empty(s.numel() * k, device=device)
            dist.all_gather_into_tensor(whole, s, group=shard)
            out.append(whole.reshape(d, d))
        return out

    full = [w.requires_grad_() for w in gather()]  # forward's all-gathers
    loss_of(full).backward()
    gather()  # backward gathers the units again, as the playground does
    nxt = []
    for s, w in zip(shards, full):
        mine = torch.empty_like(s)
        dist.reduce_scatter_tensor(mine, w.grad.reshape(-1), op=dist.ReduceOp.SUM, group=shard)
        mine /= k  # Gloo has no AVG before 2.x: sum, then divide
        if replicate is not None:
            dist.all_reduce(mine, op=dist.ReduceOp.SUM, group=replicate)  # HSDP: average over the replicas
            mine /= nodes
        nxt.append(s - lr * mine)
    return nxt


# Every rank makes every group, in the same order, as torch.distributed.new_group requires.
everyone = dist.new_group(list(range(world)))
node_groups = [dist.new_group([n * per_node + g for g in range(per_node)]) for n in range(nodes)]
rail_groups = [dist.new_group([n * per_node + g for n in range(nodes)]) for g in range(per_node)]
my_node, local = node_groups[rank // per_node], rank % per_node
full_shard = hsdp = None
times = torch.zeros(2, dtype=torch.float64, device=device)
if available:
    dist.barrier()
    t0 = wall_clock(device)
    full_shard = step(everyone, world, rank, None)
    t1 = wall_clock(device)
    hsdp = step(my_node, per_node, local, rail_groups[local])
    t2 = wall_clock(device)
    times = torch.tensor([t1 - t0, t2 - t1], dtype=torch.float64, device=device)
dist.all_reduce(times, op=dist.ReduceOp.MAX)  # the step's time is the slowest rank's
gap = torch.zeros(1, dtype=torch.float64, device=device)
if available:
    for s, h in zip(full_shard, hsdp):
        whole = torch.empty(s.numel() * world, device=device)
        dist.all_gather_into_tensor(whole, s)
        n = h.numel()
        gap[0] = max(gap[0].item(), (whole[local * n : (local + 1) * n] - h).abs().max().item())
dist.all_reduce(gap, op=dist.ReduceOp.MAX)


def ms(s):
    return f"{fixed(s * 1000, 1)} ms" if available else "n/a"


def gb(k):
    return f"{fixed(16 * llama2_7b / k / 1e9, 1)} GB"


say("times: wall clock, measured on this machine (the toy model, not Llama 2)")
say(f"FULL_SHARD over {world} GPUs: step {ms(times[0].item())}")
say(f"HSDP on a {nodes} × {per_node} mesh: step {ms(times[1].item())}")
say(f"model states per GPU (16 bytes a parameter, sharded): FULL_SHARD {gb(world)}, HSDP {gb(per_node)}")
if nodes > 1:
    say(f"HSDP's step is shorter: {js_str(times[1].item() < times[0].item()) if available else 'n/a'}")
say(f"HSDP's weights equal FULL_SHARD's after one step: {js_str(gap.item() <= 1e-6) if available else 'n/a'}")
finish()
