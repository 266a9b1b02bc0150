"""PyTorch twin of 10-compress-gradients.ts: one gradient all-reduced exactly, as DDP's bf16_compress_hook sends it,
and as powerSGD_hook sends it; then 12 SGD steps with PowerSGD at rank 1, with and without error feedback.

The compressed all-reduces are PyTorch's own hooks (torch.distributed.algorithms.ddp_comm_hooks) registered on a DDP
model whose one parameter is the playground's 256 × 128 weight, so the hooks see the same gradient matrix:
    model.register_comm_hook(state, powerSGD_hook)     # PowerSGDState(..., warm_start=True, start_powerSGD_iter=2)
    model.register_comm_hook(None, default_hooks.bf16_compress_hook)
PowerSGDState needs start_powerSGD_iter ≥ 2 with warm start or error feedback, so each model runs two plain backward
passes first (thrown away); then its Q memory is filled with the playground's tf.randomNormal Q (same seed), which the
hook orthogonalizes as warm start does, so both sides compress with the same Q (powerSGD_hook.py: q_memory_dict,
need_randomize_qs). Training updates W with the gradient the hook leaves in W.grad.
bf16_compress_hook needs CUDA 11+ and NCCL 2.10+ in PyTorch 1.13 (DDP._check_comm_hook refuses it on Gloo); where it
cannot be registered the twin runs its arithmetic written out (cast to bf16, div_(world_size), all-reduce in bf16,
cast back), the bf16 values travelling two to an int32 as the playground sends them. fp16_compress_hook runs on Gloo
too; the playground has no fp16 (JavaScript has no fp16 rounding it can count on), so it is not printed.
Byte counts are what NCCL's ring sends per rank, 2(N − 1)/N of each all-reduced tensor, as the playground's runtime
counts them (P and Q for PowerSGD), computed from the tensors' sizes.

Times: on its page the playground times a simulated cluster (virtual time, two 100 GbE nodes of two A100s, each
collective charged as a 1e9-parameter model of such matrices). This twin measures the machine it runs on: wall time
with time.perf_counter() after dist.barrier().

Run: torchrun --nproc_per_node=4 10-compress-gradients.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 1.13 or newer; bf16_compress_hook itself runs only on CUDA GPUs with NCCL 2.10+.
"""
import torch
import torch.distributed as dist
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.distributed.algorithms.ddp_comm_hooks.powerSGD_hook import PowerSGDState, powerSGD_hook
from torch.nn.parallel import DistributedDataParallel

from ranks_twin import say_clock, exponential, finish, fixed, js_str, random_normal, say, start, wall_clock

rank, world, device = start()
N, n, m, rows, steps, lr = world, 256, 128, 32, 12, 0.1
X = random_normal([rows, n], 0, 1, seed=10 + rank).to(device)
Y = random_normal([rows, m], 0, 1, seed=20 + rank).to(device)
W0 = random_normal([n, m], 0, 0.05, seed=1).to(device)


def gradient(W):
    """This rank's gradient of its mean squared error at W: 2/(rows·m) · Xᵀ(XW − Y)."""
    return X.t() @ (X @ W - Y) * (2 / (rows * m))


def loss(W):
    local = (X @ W - Y).square().mean()
    dist.all_reduce(local, op=dist.ReduceOp.SUM)
    return local.item() / N


def ring_bytes(t):
    """What a ring all-reduce sends per rank: 2(N − 1) chunks of numel/N fp32 values."""
    return 2 * (N - 1) * (t.numel() // N) * 4


def all_reduce(t):
    out = t.clone()
    dist.all_reduce(out, op=dist.ReduceOp.SUM)
    return out, ring_bytes(t)


def rel_error(a, exact):
    return ((a - exact).norm() / exact.norm()).item()


def bf16_all_reduce(g):
    """bf16_compress_hook's arithmetic; reduce-scatter as N − 1 sends of the 16-bit chunks, then an all-gather."""
    q = (g.reshape(-1).to(torch.bfloat16) / N).to(torch.bfloat16)
    chunk = q.numel() // N
    part = lambda j: q[j * chunk:(j + 1) * chunk]
    peers = [j for j in range(N) if j != rank]
    sends = [dist.isend(part(j).contiguous().view(torch.int32), dst=j) for j in peers]
    got = []
    for j in peers:
        buf = torch.empty(chunk // 2, dtype=torch.int32, device=device)
        dist.recv(buf, src=j)
        got.append(buf)
    for s in sends:
        s.wait()
    total = part(rank).float()
    for buf in got:
        total = total + buf.view(torch.bfloat16).float()
    mine = total.to(torch.bfloat16).view(torch.int32)
    gathered = [torch.empty_like(mine) for _ in range(N)]
    dist.all_gather(gathered, mine)
    out = torch.cat(gathered).view(torch.bfloat16).float().reshape(n, m)
    return out, 2 * (N - 1) * chunk * 2


class Layer(torch.nn.Module):
    """The playground's one weight: loss = mean((XW − Y)²), whose gradient is gradient(W)."""

    def __init__(self, W):
        super().__init__()
        self.W = torch.nn.Parameter(W.clone())

    def forward(self, x):
        return x @ self.W


def ddp(W, hook, state):
    model = DistributedDataParallel(Layer(W).to(device), device_ids=[device.index] if device.type == "cuda" else None)
    model.register_comm_hook(state, hook)
    return model


def hooked_gradient(model):
    """One backward through DDP: the gradient its hook all-reduced (averaged), as DDP leaves it in W.grad."""
    model.module.W.grad = None
    (model(X) - Y).square().mean().backward()
    return model.module.W.grad.detach().clone()


def power_sgd_model(W, r, feedback, seed):
    """DDP with powerSGD_hook at rank r, past its two plain iterations, its Q the playground's (seed)."""
    state = PowerSGDState(
        process_group=None,
        matrix_approximation_rank=r,
        start_powerSGD_iter=2,
        use_error_feedback=feedback,
        warm_start=True,
        orthogonalization_epsilon=1e-8,
    )
    model = ddp(W, powerSGD_hook, state)
    for _ in range(2):
        hooked_gradient(model)
    state.p_memory_dict[0] = torch.empty(n * r, device=device)
    state.q_memory_dict[0] = random_normal([m, r], 0, 1, seed=seed).reshape(-1).to(device)
    return model


def power_sgd_bytes(r):
    """P (n × r) and Q (m × r) all-reduced in fp32."""
    return ring_bytes(torch.empty(n * r)) + ring_bytes(torch.empty(m * r))


def bf16_hooked():
    """bf16_compress_hook on DDP where PyTorch allows it (CUDA, NCCL 2.10+), else None."""
    try:
        model = ddp(W0, default_hooks.bf16_compress_hook, None)
    except TypeError:
        return None
    return hooked_gradient(model).reshape(n, m), 2 * (N - 1) * (n * m // N) * 2


def measure(f):
    dist.barrier()
    t = wall_clock(device)
    out, sent = f()
    return out, sent, wall_clock(device) - t


def ms(s):
    return f"{fixed(s * 1000, 1)} ms"


# 1. One gradient, three ways.
G = gradient(W0)
exact, exact_bytes, exact_s = measure(lambda: (lambda o: (o[0] / N, o[1]))(all_reduce(G)))
bf16, bf16_bytes, bf16_s = measure(lambda: bf16_hooked() or bf16_all_reduce(G))
psgd_model = power_sgd_model(W0, 4, False, 7)
psgd, psgd_bytes, psgd_s = measure(lambda: (hooked_gradient(psgd_model), power_sgd_bytes(4)))
bf16_error, psgd_error = rel_error(bf16, exact), rel_error(psgd, exact)
if rank == 0:
    say_clock()
    say(f"one {n}×{m} fp32 gradient per rank, {N} ranks")
    say(f"fp32 all-reduce: {exact_bytes} bytes sent by this rank, {ms(exact_s)}")
    say(f"bf16 hook: {bf16_bytes} bytes ({fixed(bf16_bytes / exact_bytes, 2)}× fp32), {ms(bf16_s)}, relative error {exponential(bf16_error, 1)}")
    say(f"PowerSGD rank 4: {psgd_bytes} bytes ({fixed(psgd_bytes / exact_bytes, 3)}× fp32), {ms(psgd_s)}, relative error {fixed(psgd_error, 3)}")
say(f"bf16 sends half the bytes: {js_str(bf16_bytes * 2 == exact_bytes)}")
say(f"PowerSGD rank 4 sends (n + m)·r = {(n + m) * 4} numbers for {n * m}: {js_str(exact_bytes / psgd_bytes == (n * m) / ((n + m) * 4))}")


# 2. Training: every step's gradient all-reduced exactly, or by PowerSGD rank 1 with and without error feedback.
def train(mode):
    W = W0.clone()
    model = None if mode == "exact" else power_sgd_model(W0, 1, mode == "feedback", 100)
    for step in range(steps):
        if model is None:
            W = W - all_reduce(gradient(W))[0] / N * lr
        else:
            g = hooked_gradient(model)
            with torch.no_grad():
                model.module.W.sub_(g * lr)
    return W if model is None else model.module.W.detach().clone()


w_exact, w_no, w_ef = train("exact"), train("no-feedback"), train("feedback")
loss_exact, loss_no, loss_ef = loss(w_exact), loss(w_no), loss(w_ef)
gap_no, gap_ef = rel_error(w_no, w_exact), rel_error(w_ef, w_exact)
if rank == 0:
    say(f"after {steps} steps: loss {fixed(loss_exact, 4)} exact, {fixed(loss_no, 4)} PowerSGD rank 1, {fixed(loss_ef, 4)} with error feedback")
    say(f"weights' relative distance to the exact run: {fixed(gap_no, 3)} without error feedback, {fixed(gap_ef, 3)} with")
    say(f"error feedback keeps {n * m * 4} bytes per rank: one more fp32 gradient")
say(f"error feedback brings PowerSGD closer to exact: {js_str(gap_ef < gap_no)}")
finish()
