"""PyTorch twin of 09-reshard-checkpoint.ts: a sharded checkpoint saved at world 4 and loaded at world 2 with PyTorch
Distributed Checkpoint (torch.distributed.checkpoint, "DCP"). The parameters are a DTensor sharded on dim 0 (FSDP2
keeps parameters that way); dcp.save has every rank write only its own chunk, __<rank>_0.distcp, plus a .metadata file
saying where each chunk sits in the full tensor (torch/distributed/checkpoint/filesystem.py: _StoragePrefix
f"__{i}_", DEFAULT_SUFFIX ".distcp"). dcp.load into a DTensor sharded over 2 ranks plans, on each rank, reads of only
the saved pieces that overlap the shard it now owns (DefaultLoadPlanner.create_local_plan, whose ReadItems this twin
prints: torch/distributed/checkpoint/planner.py).
Ranks {0, 1} and {2, 3} each form a 2-rank device mesh and both restore the checkpoint, as two jobs of 2 would; the
four processes make one dcp.load call, so its planning runs over the default group.
The checkpoint goes to ./reshard-checkpoint (or $RANKS_CHECKPOINT_DIR: on several machines, a shared filesystem) and is
removed at the end.

Run: torchrun --nproc_per_node=4 09-reshard-checkpoint.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 2.6 or newer, as on GPUs: it is written against the public DTensor (torch.distributed.tensor), init_device_mesh and dcp.save / dcp.load with checkpoint_id; PyTorch 1.13 has no torch.distributed.checkpoint, so CI checks this twin's names only.
"""
import math
import os
import re
import shutil

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint import DefaultLoadPlanner, FileSystemReader
from torch.distributed.checkpoint.metadata import MetadataIndex
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Shard, distribute_tensor

from ranks_twin import js_str, random_normal, say, start, finish

rank, world, device = start()
if world != 4:
    raise SystemExit("this twin saves at world 4: run it with --nproc_per_node=4")
psi = 1001  # not a multiple of 4 or 2: shards are uneven and old and new boundaries do not line up
path = os.environ.get("RANKS_CHECKPOINT_DIR", "reshard-checkpoint")
weights = random_normal([psi], 0, 1, seed=1234).to(device)  # stands in for the trained parameters

# save() at world 4: each rank holds one dim-0 chunk (torch.chunk sizes: 251, 251, 251, 248) and writes only that.
mesh4 = init_device_mesh(device.type, (4,))
dcp.save({"weights": distribute_tensor(weights, mesh4, [Shard(0)])}, checkpoint_id=path)
metadata = FileSystemReader(path).read_metadata()
for chunk in metadata.state_dict_metadata["weights"].chunks:
    file = metadata.storage_data[MetadataIndex("weights", chunk.offsets)].relative_path
    if file.startswith(f"__{rank}_"):
        say(f"rank {rank} saved {file}: elements [{chunk.offsets[0]}, {chunk.offsets[0] + chunk.sizes[0]})")


class RecordingLoadPlanner(DefaultLoadPlanner):
    """DCP's default load planner, keeping the plan it made so the twin can print which saved pieces it reads."""

    def create_local_plan(self):
        self.local_plan = super().create_local_plan()
        return self.local_plan


# load() at world 2: two 2-rank meshes, ranks {0, 1} and {2, 3}; each loads into a DTensor sharded over its own mesh.
job = init_device_mesh(device.type, (2, 2), mesh_dim_names=("job", "shard"))["shard"]
job_rank = job.get_local_rank()
restored = {"weights": distribute_tensor(torch.zeros(psi, device=device), job, [Shard(0)])}
planner = RecordingLoadPlanner()
dcp.load(restored, checkpoint_id=path, planner=planner)
size = math.ceil(psi / 2)
want_start = min(psi, job_rank * size)
want_end = want_start + restored["weights"].to_local().numel()
reads = []
for item in sorted(planner.local_plan.items, key=lambda i: i.storage_index.offset[0]):
    first = item.storage_index.offset[0] + item.storage_offsets[0]
    saver = re.match(r"__(\d+)_", metadata.storage_data[item.storage_index].relative_path).group(1)
    reads.append(f"rank {saver}'s [{first}, {first + item.lengths[0]})")
say(f"rank {rank} = rank {job_rank} of 2 owns [{want_start}, {want_end}), reads {' + '.join(reads)}")

# Check: the world-2 job's shards, gathered, are bit-for-bit the world-4 weights.
whole = restored["weights"].full_tensor()
same = torch.equal(whole.view(torch.int32), weights.view(torch.int32))
everyone = torch.tensor([1 if same else 0], device=device)
dist.all_reduce(everyone, op=dist.ReduceOp.MIN)
say(f"world 2 restores the world-4 checkpoint bit for bit: {js_str(everyone.item() == 1)}")
dist.barrier()  # everyone has read the checkpoint before it goes
if rank == 0:
    shutil.rmtree(path, ignore_errors=True)
finish()
