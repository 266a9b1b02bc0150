"""Shared helper for the PyTorch twins of the Ranks playgrounds (content/twins/NN-name.py).

Keep this file next to the twin you run: `torchrun --nproc_per_node=4 04-manual-ddp.py` imports it from there.
It holds only what a twin needs beyond torch.distributed itself:
  - start():        init_process_group with NCCL when CUDA is present, Gloo otherwise; returns (rank, world, device)
  - say(...):       prints one line as "[rank k] ..." (flushed), like `npm run ranks -- run`
  - js_str, fixed, exponential, console_line: numbers formatted as the playground's JavaScript prints them
  - random_normal, random_uniform: the values of tf.randomNormal / tf.randomUniform with the same seed, so a
    twin starts from the playground's data and weights without loading a file
  - Lcg:            the 32-bit generator of playground/parallel/lcg.ts (the book's reference MLP; tests/reference/mlp_twin.py
                    imports it from here)
  - mlp:            the playground's mlp(widths, { seed }) as nn.Sequential, parameters from Lcg(seed)
  - wall_clock, say_clock: real time for the twins of the time playgrounds, whose pages time a simulated cluster
  - RANKS_TRACE=out.json: start() runs torch.profiler on every rank and finish() writes one Chrome trace in the
    shape of the page's "Download trace" (one thread per rank stream: "rank k compute", "rank k comm"), so the two
    open side by side in ui.perfetto.dev (merge_rank_traces)
"""
import math
import os
import time
from decimal import ROUND_HALF_UP, Decimal, localcontext

import torch
import torch.distributed as dist

# --------------------------------------------------------------------------------------------------------------
# Process group
# --------------------------------------------------------------------------------------------------------------

_rank = 0


def start():
    """Joins the job torchrun (or SLURM + torchrun) started: NCCL on GPUs, Gloo on CPUs. Returns (rank, world, device)."""
    global _rank
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    if torch.cuda.is_available() and dist.is_nccl_available():
        local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(device)
        backend = "nccl"
    else:
        device = torch.device("cpu")
        backend = "gloo"
    if not dist.is_initialized():  # the test driver may have joined already, to reuse one torchrun for every twin
        dist.init_process_group(backend)
    _rank = dist.get_rank()
    _start_trace()
    return _rank, dist.get_world_size(), device


def finish():
    """Writes the trace RANKS_TRACE asked for, then leaves the process group (unless a driver that runs several twins owns it)."""
    _finish_trace()
    if dist.is_initialized() and not os.environ.get("RANKS_TWIN_DRIVER"):
        dist.destroy_process_group()


# --------------------------------------------------------------------------------------------------------------
# torch.profiler trace in the page's shape (RANKS_TRACE=out.json)
# --------------------------------------------------------------------------------------------------------------

_profiler = None


def _start_trace():
    """With RANKS_TRACE set, profiles this rank from here to finish(). The barrier first lets every rank's profiler
    clock start at the same moment, so their traces line up at 0 (each rank's trace is timed from its own start)."""
    global _profiler
    if not os.environ.get("RANKS_TRACE") or _profiler is not None:
        return
    from torch.profiler import ProfilerActivity, profile

    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if torch.cuda.is_available() else [])
    dist.barrier()
    _profiler = profile(activities=activities)
    _profiler.__enter__()


def _finish_trace():
    """Stops the profiler and sends this rank's export_chrome_trace to rank 0 (gather_object: no shared filesystem
    needed across machines), which merges every rank's into RANKS_TRACE (merge_rank_traces)."""
    global _profiler
    if _profiler is None:
        return
    import json
    import tempfile

    prof, _profiler = _profiler, None
    prof.__exit__(None, None, None)
    with tempfile.TemporaryDirectory() as tmp:
        part = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(part)
        with open(part) as f:
            trace = json.load(f)
    traces = [None] * dist.get_world_size() if _rank == 0 else None
    dist.gather_object(trace, traces, dst=0)
    if _rank == 0:
        path = os.environ["RANKS_TRACE"]
        per_node = int(os.environ.get("LOCAL_WORLD_SIZE", dist.get_world_size()))
        with open(path, "w") as f:
            json.dump(merge_rank_traces(traces, per_node), f)
        say(f"torch.profiler trace of every rank written to {path}: open it in ui.perfetto.dev")


# A collective kernel on a GPU stream: NCCL names its kernels ncclDevKernel_<coll>_… (NVIDIA/nccl src/device/generate.py,
# paste("_", "ncclDevKernel", ...)); any kernel whose name starts with "nccl" is taken as NCCL's.
_NCCL_KERNEL = ("nccl",)


def merge_rank_traces(traces, gpus_per_node):
    """Every rank's torch.profiler Chrome trace (export_chrome_trace: a list of events from the legacy profiler, or a
    {"traceEvents": [...]} object from Kineto) as one trace in the shape of the page's Download trace
    (playground/cluster/chrome-trace.ts): complete events ("ph": "X", ts/dur in µs), pid = node,
    tid = rank * 2 for the compute stream and rank * 2 + 1 for the communication stream, thread_name metadata
    "rank k compute" / "rank k comm". On CPUs (Gloo) the compute stream is the rank's main thread and the
    communication stream the threads Gloo runs its collectives on; on GPUs it is the kernels: NCCL's on the comm
    stream, every other kernel on the compute stream (CPU-side operator events are left out, as the page draws
    GPU streams). Each rank is timed from its own first event."""
    out = []
    for rank, trace in enumerate(traces):
        events = trace["traceEvents"] if isinstance(trace, dict) else trace
        spans = [e for e in events if e.get("ph") == "X" and "ts" in e and "dur" in e]
        kernels = [e for e in spans if e.get("cat") == "kernel"]
        if kernels:
            spans = kernels
            lane = lambda e: "comm" if e["name"].lower().startswith(_NCCL_KERNEL) else "compute"
        else:
            main = _main_thread(spans)
            lane = lambda e, main=main: "compute" if e["tid"] == main else "comm"
        pid = rank // gpus_per_node if gpus_per_node else 0
        t0 = min((float(e["ts"]) for e in spans), default=0.0)
        for stream in ("compute", "comm"):
            tid = rank * 2 + (stream == "comm")
            out.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": f"rank {rank} {stream}"}})
            out.append({"name": "thread_sort_index", "ph": "M", "pid": pid, "tid": tid, "args": {"sort_index": tid}})
        for e in spans:
            stream = lane(e)
            out.append(
                {
                    "name": e["name"],
                    "cat": e.get("cat", "cpu_op"),
                    "ph": "X",
                    "pid": pid,
                    "tid": rank * 2 + (stream == "comm"),
                    "ts": round(float(e["ts"]) - t0, 3),
                    "dur": round(float(e["dur"]), 3),
                    "args": {"rank": rank},
                }
            )
    nodes = sorted({e["pid"] for e in out})
    out[:0] = [{"name": "process_name", "ph": "M", "pid": p, "tid": 0, "args": {"name": f"node {p}"}} for p in nodes]
    return {
        "traceEvents": out,
        "displayTimeUnit": "ms",
        "otherData": {"clock": "wall clock of the machine the twin ran on (torch.profiler)"},
    }


def _main_thread(spans):
    """The thread that ran the program: the one with the most time in events (Gloo's threads only run collectives)."""
    busy = {}
    for e in spans:
        busy[e["tid"]] = busy.get(e["tid"], 0.0) + float(e["dur"])
    return max(busy, key=busy.get) if busy else None


def require_cuda(feature, source):
    """Stops with a clear message where a feature has no CPU implementation in PyTorch."""
    if not torch.cuda.is_available():
        raise SystemExit(f"{feature} needs CUDA GPUs: PyTorch has no CPU path for it ({source}). Run this twin on a GPU machine.")


def fsdp_mesh(device):
    """FSDP2's mesh: every rank, on this run's device type. Given to fully_shard explicitly because its default
    (_fsdp_init.py, _init_default_mesh) takes torch._C._get_accelerator(), the accelerator the wheel was built for:
    a CUDA build on a machine without a GPU would get a CUDA mesh and fail. Imported here, not at the top: PyTorch
    1.13 (CI) has no torch.distributed.device_mesh, and only FSDP2 code (2.6 or newer) calls this."""
    from torch.distributed.device_mesh import init_device_mesh

    return init_device_mesh(device.type, (dist.get_world_size(),))


def fsdp_gloo_sum(unit, device, required=True):
    """On Gloo, has one fully_shard unit reduce-scatter with SUM and divide itself: FSDP2 averages fp32 gradients
    with ReduceOp.AVG (_fsdp_collectives.py, _get_gradient_divide_factors), which Gloo gets wrong on some versions
    (pytorch/pytorch#162338). Per unit: set_force_sum_reduction_for_comms is not recursive (pytorch/pytorch#155915).
    Without the method a twin stops, unless it does not `required` it (Adam ignores a uniform gradient scale)."""
    if device.type != "cpu":
        return
    if not hasattr(unit, "set_force_sum_reduction_for_comms"):
        if not required:
            return
        raise SystemExit(
            "On Gloo this twin needs an FSDPModule with set_force_sum_reduction_for_comms (pytorch/pytorch#155915): "
            f"this PyTorch {torch.__version__} would average gradients with Gloo's ReduceOp.AVG (pytorch/pytorch#162338)."
        )
    unit.set_force_sum_reduction_for_comms(True)


def wall_clock(device):
    """Seconds on this machine's clock, after the device's queued kernels finish (a GPU runs them asynchronously)."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return time.perf_counter()


def say_clock():
    """Rank 0 says what the times are: a playground on a simulated cluster prints virtual time; a twin measures."""
    if _rank == 0:
        say("times: wall clock, measured on this machine")


def say(*parts):
    """One output line, tagged with the rank like the playground's output panes."""
    print(f"[rank {_rank}] " + " ".join(str(p) for p in parts), flush=True)


def console_line(*args):
    """The text console.log(...args) prints in a playground: strings as they are, numbers to 6 significant digits."""
    return " ".join(a if isinstance(a, str) else _console_value(a) for a in args)


def _console_value(v):
    if isinstance(v, torch.Tensor):
        v = v.tolist()
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_console_value(x) for x in v) + "]"
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, bool) or v is None:
        return js_str(v)
    return js_str(v) if float(v).is_integer() else js_str(float(precision(v, 6)))


# --------------------------------------------------------------------------------------------------------------
# Numbers as JavaScript prints them
# --------------------------------------------------------------------------------------------------------------


def js_str(v):
    """String(v) in JavaScript: true/false, integers without ".0", shortest round-trip digits, arrays joined by ","."""
    if isinstance(v, torch.Tensor):
        v = v.tolist()
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "undefined"
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return ",".join(js_str(x) for x in v)
    x = float(v)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    digits, exp = _shortest(abs(x))  # value = 0.digits × 10^exp
    k = len(digits)
    if k <= exp <= 21:
        return sign + digits + "0" * (exp - k)
    if 0 < exp <= 21:
        return sign + digits[:exp] + "." + digits[exp:]
    if -6 < exp <= 0:
        return sign + "0." + "0" * (-exp) + digits
    e = exp - 1
    mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"


def _shortest(x):
    """Shortest digits that round-trip (Python's repr, the same rule as JavaScript) and the decimal exponent."""
    d = Decimal(repr(x))
    sign, digits, exponent = d.as_tuple()
    text = "".join(map(str, digits)).rstrip("0") or "0"
    trailing = len(digits) - len("".join(map(str, digits)).rstrip("0"))
    return text, len(text) + exponent + trailing


def fixed(v, places):
    """Number.prototype.toFixed: the exact binary value rounded half away from zero, "-" kept only for non-zero."""
    x = float(v)
    if not math.isfinite(x) or abs(x) >= 1e21:
        return js_str(x)
    q = Decimal(abs(x)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    text = f"{q:f}"
    return ("-" if x < 0 else "") + text


def exponential(v, places):
    """Number.prototype.toExponential: d.ddde±x with the exponent unpadded."""
    x = float(v)
    if not math.isfinite(x):
        return js_str(x)
    if x == 0:
        return "0" + ("." + "0" * places if places else "") + "e+0"
    with localcontext() as ctx:
        ctx.rounding = ROUND_HALF_UP
        text = format(Decimal(abs(x)), f".{places}e")
    mantissa, e = text.split("e")
    e = int(e)
    return ("-" if x < 0 else "") + f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"


def precision(v, digits):
    """Number.prototype.toPrecision without the exponential form (enough for console-style printing)."""
    x = float(v)
    if x == 0:
        return "0"
    with localcontext() as ctx:
        ctx.rounding = ROUND_HALF_UP
        ctx.prec = digits
        return str(+Decimal(x))


# --------------------------------------------------------------------------------------------------------------
# The playgrounds' random data: tf.randomNormal / tf.randomUniform with a seed, value for value
# --------------------------------------------------------------------------------------------------------------


class _Alea:
    """seedrandom's alea() (Johannes Baagøe, MIT), the generator tfjs seeds with String(seed)."""

    def __init__(self, seed):
        n = [0xEFC8249D]

        def mash(data):
            for ch in str(data):
                n[0] += ord(ch)
                h = 0.02519603282416938 * n[0]
                n[0] = int(h) & 0xFFFFFFFF
                h -= n[0]
                h *= n[0]
                n[0] = int(h) & 0xFFFFFFFF
                h -= n[0]
                n[0] += h * 0x100000000
            return (int(n[0]) & 0xFFFFFFFF) * 2.3283064365386963e-10

        self.c = 1
        self.s0, self.s1, self.s2 = mash(" "), mash(" "), mash(" ")
        self.s0 -= mash(seed)
        if self.s0 < 0:
            self.s0 += 1
        self.s1 -= mash(seed)
        if self.s1 < 0:
            self.s1 += 1
        self.s2 -= mash(seed)
        if self.s2 < 0:
            self.s2 += 1

    def __call__(self):
        t = 2091639 * self.s0 + self.c * 2.3283064365386963e-10
        self.s0, self.s1 = self.s1, self.s2
        self.c = int(t)
        self.s2 = t - self.c
        return self.s2


def _seed_text(seed):
    if not seed:
        raise ValueError("tfjs treats seed 0 (or none) as unseeded: pick a non-zero seed so both sides agree")
    return js_str(seed)


def random_normal(shape, mean=0.0, std=1.0, seed=None):
    """tf.randomNormal(shape, mean, std, 'float32', seed): Marsaglia's polar method on alea, rounded to float32."""
    rand = _Alea(_seed_text(seed))
    count = math.prod(shape)
    out = []
    while len(out) < count:
        while True:
            v1 = 2 * rand() - 1
            v2 = 2 * rand() - 1
            s = v1 * v1 + v2 * v2
            if 0 < s < 1:
                break
        mul = math.sqrt(-2.0 * math.log(s) / s)
        out.append(mean + std * v1 * mul)
        out.append(mean + std * v2 * mul)
    return torch.tensor(out[:count], dtype=torch.float32).reshape(shape)


def random_uniform(shape, low=0.0, high=1.0, seed=None):
    """tf.randomUniform(shape, low, high, 'float32', seed)."""
    rand = _Alea(_seed_text(seed))
    values = [low + (high - low) * rand() for _ in range(math.prod(shape))]
    return torch.tensor(values, dtype=torch.float32).reshape(shape)


class Lcg:
    """playground/parallel/lcg.ts: Numerical Recipes LCG; every value k / 2^23 - 1 is exact in float32."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF

    def value(self):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return (self.state >> 8) / 16777216.0 * 2.0 - 1.0

    def fill(self, n, scale=1.0):
        return torch.tensor([self.value() * scale for _ in range(n)], dtype=torch.float32)


def mlp(widths, seed, device):
    """The playground's mlp(widths, { seed }): Linear layers with tanh between, parameters from Lcg(seed) × 0.5 in
    registration order (weight [out, in], then bias), as playground/parallel/sequential.ts fills them."""
    layers = []
    for i in range(len(widths) - 1):
        layers.append(torch.nn.Linear(widths[i], widths[i + 1]))
        if i + 2 < len(widths):
            layers.append(torch.nn.Tanh())
    model = torch.nn.Sequential(*layers)
    rng = Lcg(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(rng.fill(p.numel(), 0.5).reshape(p.shape))
    return model.to(device)
