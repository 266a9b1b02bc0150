"""Prints PyTorch DDP's gradient-bucket assignment for parameter sizes given as JSON on stdin.

Input:  {"cases": [{"bytes": [...], "first_mb": 1, "cap_mb": 25}, ...]}   (float32 parameters, registration order)
Output: {"torch": "1.13...", "buckets": [[[9, 8], [7, 6, 5, 4], ...], ...]}

Uses the assignment DDP makes when it rebuilds its buckets after the first iteration: parameters in
gradient-ready order (reverse registration for a sequential model), first bucket capped at first_mb.
"""
import json
import sys

import torch
import torch.distributed as dist


def assign(sizes, first_mb, cap_mb):
    order = list(reversed(range(len(sizes))))
    tensors = [torch.empty(sizes[i] // 4) for i in order]
    limits = [int(first_mb * 2**20), int(cap_mb * 2**20)]
    buckets, _ = dist._compute_bucket_assignment_by_size(tensors, limits, [False] * len(order), order)
    return buckets


def main():
    cases = json.load(sys.stdin)["cases"]
    json.dump({"torch": torch.__version__, "buckets": [assign(c["bytes"], c["first_mb"], c["cap_mb"]) for c in cases]}, sys.stdout)


if __name__ == "__main__":
    main()
