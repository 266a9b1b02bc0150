"""Runs many PyTorch twins (content/twins/*.py) in one torchrun job, for tests/unit/twins/twin-runs.test.ts.

Usage: /usr/bin/python3 -m torch.distributed.run --rdzv_backend c10d --rdzv_endpoint localhost:0 --nnodes 1 \
           --nproc_per_node N --redirects 1 --tee 1 tests/reference/twin_driver.py content/twins/01-average-gradients.py ...
(localhost:0 lets torchrun pick a free port; torch 1.13's --standalone always takes 29400, so parallel jobs collide.)

Starting torch and a process group costs seconds per process on a loaded 2-core CI machine, so the driver joins
once and runs each twin in turn (runpy, a fresh namespace each), between "[rank k] @@twin NAME" markers and
barriers. Each twin's start() sees the group already initialized; its finish() leaves it to the driver.
A twin that fails ends the job at once, naming itself, so the test reports which twin broke.

Old PyTorch: Gloo gained reduce_scatter_tensor and all_gather_into_tensor only in pytorch/pytorch#112144 (Oct 2023)
and #118911 (Feb 2024). Where the probe below finds them missing (Debian's 1.13), the driver stands in for them with
all_reduce + chunk and all_gather into views, and says so on stderr. This is test scaffolding only: the twins
themselves call the real functions, which a reader's PyTorch 2.3+ (or NCCL on GPUs) provides.
"""
import os
import runpy
import sys
import time
import traceback
from datetime import timedelta

os.environ["RANKS_TWIN_DRIVER"] = "1"
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402


def gloo_has_tensor_collectives():
    """Probes reduce_scatter_tensor once; old Gloo raises at once on every rank, before any communication."""
    try:
        out = torch.empty(1)
        dist.reduce_scatter_tensor(out, torch.ones(dist.get_world_size()))
        return True
    except RuntimeError:
        return False


def install_stand_ins():
    real_all_reduce, real_all_gather = dist.all_reduce, dist.all_gather

    def reduce_scatter_tensor(output, input, op=dist.ReduceOp.SUM, group=None, async_op=False):
        total = input.clone()
        real_all_reduce(total, op=op, group=group)
        output.copy_(total.reshape(dist.get_world_size(group), -1)[dist.get_rank(group)].reshape(output.shape))
        return _Done() if async_op else None

    def all_gather_into_tensor(output, input, group=None, async_op=False):
        views = list(output.view(dist.get_world_size(group), *input.shape).unbind(0))
        return real_all_gather(views, input.contiguous(), group=group, async_op=async_op)

    dist.reduce_scatter_tensor = reduce_scatter_tensor
    dist.all_gather_into_tensor = all_gather_into_tensor
    if dist.get_rank() == 0:
        print(f"twin_driver: torch {torch.__version__}'s Gloo lacks reduce_scatter_tensor / all_gather_into_tensor; "
              "standing in with all_reduce and all_gather for this test run", file=sys.stderr, flush=True)


class _Done:
    def wait(self):
        return True

    def is_completed(self):
        return True


def main(paths):
    dist.init_process_group("gloo", timeout=timedelta(seconds=90))
    rank = dist.get_rank()
    if not gloo_has_tensor_collectives():
        install_stand_ins()
    for path in paths:
        name = os.path.basename(path)
        sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
        dist.barrier()
        print(f"[rank {rank}] @@twin {name}", flush=True)
        started = time.perf_counter()
        try:
            runpy.run_path(path, run_name="__main__")
            if rank == 0:  # what each twin costs, for keeping the CI budget honest
                print(f"twin_driver: {name} took {time.perf_counter() - started:.1f} s on rank 0", file=sys.stderr, flush=True)
        except BaseException as e:  # SystemExit included: a twin that exits early has failed too
            detail = "".join(traceback.format_exception(e)).strip().replace("\n", " | ")
            print(f"[rank {rank}] @@failed {name}: {detail}", flush=True)
            os._exit(1)
    dist.barrier()
    print(f"[rank {rank}] @@done", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    # torchrun --tee tails each rank's redirected stdout with readline(): a block-buffered flush that ends
    # mid-line reaches the test as two broken lines (seen in CI: a twin's line lost). One write per line.
    sys.stdout.reconfigure(line_buffering=True)
    main(sys.argv[1:])
