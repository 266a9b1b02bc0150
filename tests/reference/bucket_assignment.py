"""Prints PyTorch DDP's gradient-bucket assignments for parameter sizes given as JSON on stdin.

Input:  {"cases": [{"bytes": [...], "bucket_cap_mb": null | 2, "find_unused": false}, ...],
         "ddp": [{"widths": [512, 512, 10], "find_unused": false}, ...]}
Output: {"torch": "1.13...", "cases": [{"construction": [[...], ...], "rebuilt": [[...], ...] | null}, ...],
         "ddp": [{"construction": [bytes, ...], "rebuilt": [bytes, ...] | null, "rebuilt_params": [[...], ...] | null}, ...]}

"cases" runs torch's own `_compute_bucket_assignment_by_size` with the size limits current PyTorch
passes (torch/nn/parallel/distributed.py `_ddp_init_helper`; c10d reducer.cpp `Reducer::rebuild_buckets`):
  construction, find_unused_parameters=False: [sys.maxsize], one bucket;
  construction, find_unused_parameters=True:  [_DEFAULT_FIRST_BUCKET_BYTES, cap], or [cap] when bucket_cap_mb is given;
  rebuild after the first iteration (only when find_unused_parameters=False): [first, cap], in gradient-arrival
  order, where first is the cap itself when bucket_cap_mb is given.
Gradients of a sequential model arrive in reverse registration order.

"ddp" builds a real torch 1.13 DistributedDataParallel (gloo, one process) over an nn.Sequential of Linear
layers with the default bucket_cap_mb, runs three iterations, and reports the bucket sizes DDP logged at
construction and the sizes and parameter indices after its rebuild (the order gradients really arrived in). (torch 1.13 predates the bucket_cap_mb-without-first-bucket change, so
only default caps are compared against a live DDP.)
"""
import json
import os
import sys
import tempfile

import torch
import torch.distributed as dist

MiB = 1024 * 1024


def limits(case, phase):
    custom = case.get("bucket_cap_mb") is not None
    cap = int((case["bucket_cap_mb"] if custom else 25) * MiB)
    first = cap if custom else dist._DEFAULT_FIRST_BUCKET_BYTES
    if phase == "rebuild":
        return [first, cap]
    if not case.get("find_unused"):
        return [sys.maxsize]
    return [cap] if custom else [first, cap]


def assign(case):
    sizes = case["bytes"]
    n = len(sizes)
    tensors = [torch.empty(s // 4) for s in sizes]
    built, _ = dist._compute_bucket_assignment_by_size(tensors, limits(case, "construction"), [False] * n)
    construction = list(reversed(built))
    if case.get("find_unused"):
        return {"construction": construction, "rebuilt": None}
    order = list(reversed(range(n)))
    rebuilt, _ = dist._compute_bucket_assignment_by_size([tensors[i] for i in order], limits(case, "rebuild"), [False] * n, order)
    return {"construction": construction, "rebuilt": rebuilt}


def sizes_of(logged):
    return [int(s) for s in str(logged).replace(",", " ").split()] if logged not in (None, "") else []


def live_ddp(spec):
    layers = []
    widths = spec["widths"]
    for i in range(len(widths) - 1):
        layers += [torch.nn.Linear(widths[i], widths[i + 1]), torch.nn.Tanh()]
    model = torch.nn.Sequential(*layers[:-1])
    ddp = torch.nn.parallel.DistributedDataParallel(model, find_unused_parameters=spec.get("find_unused", False))
    ddp._set_ddp_runtime_logging_sample_rate(1)  # log runtime stats (the rebuilt buckets) every iteration
    construction = sizes_of(ddp._get_ddp_logging_data().get("bucket_sizes"))
    for _ in range(3):  # rebuilt in the forward of iteration 2, logged after its backward
        ddp(torch.randn(4, widths[0])).sum().backward()
    data = ddp._get_ddp_logging_data()
    rebuilt = sizes_of(data.get("rebuilt_bucket_sizes")) or None
    indices = [[int(i) for i in b.split()] for b in data["rebuilt_per_bucket_param_indices"].split(",")] if rebuilt else None
    return {"construction": construction, "rebuilt": rebuilt, "rebuilt_params": indices}


def main():
    request = json.load(sys.stdin)
    out = {"torch": torch.__version__, "cases": [assign(c) for c in request.get("cases", [])], "ddp": []}
    if request.get("ddp"):
        with tempfile.TemporaryDirectory() as tmp:
            dist.init_process_group("gloo", init_method=f"file://{os.path.join(tmp, 'store')}", rank=0, world_size=1)
            out["ddp"] = [live_ddp(spec) for spec in request["ddp"]]
            dist.destroy_process_group()
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
