"""PyTorch twin of 10-compress-gradients.ts: one gradient all-reduced exactly, as DDP's bf16_compress_hook sends it,
and as powerSGD_hook sends it; then 30 SGD steps with PowerSGD at rank 1, with and without error feedback.

In a real job each of these is one line on a DDP model (torch.distributed.algorithms.ddp_comm_hooks):
    model.register_comm_hook(None, default_hooks.bf16_compress_hook)
    model.register_comm_hook(PowerSGDState(None, matrix_approximation_rank=1, start_powerSGD_iter=2), powerSGD_hook)
This twin writes out what those hooks do (default_hooks.py: cast to bf16, div_(world_size), all_reduce, cast back;
powerSGD_hook.py: P = MQ, all-reduce P, _orthogonalize, Q = MᵀP, all-reduce Q, div_(world_size), M ≈ PQᵀ, the error
kept as input_tensor_cp − input_tensor) with explicit collectives, so the bytes on the wire can be counted; the bf16
values travel two to an int32, as the playground sends them. The hook's random Q comes from torch.randn under
state.rng's seed; here it is the playground's tf.randomNormal with the same seed, so both start from the same Q.
Byte counts are what NCCL's ring sends per rank, 2(N − 1)/N of the tensor, as the playground's runtime counts them.

Times: on its page the playground times a simulated cluster (virtual time, two 100 GbE nodes of two A100s, each
collective charged as a 1e9-parameter model of such matrices). This twin measures the machine it runs on: wall time
with time.perf_counter() after dist.barrier().

Run: torchrun --nproc_per_node=4 10-compress-gradients.py   (ranks_twin.py next to this file)
Runs on PyTorch 1.13 (CI's) and newer, Gloo or NCCL: it needs only all_reduce, all_gather, isend/recv and Tensor.view(dtype).
"""
import torch
import torch.distributed as dist

from ranks_twin import say_clock, exponential, finish, fixed, js_str, random_normal, say, start, wall_clock

rank, world, device = start()
N, n, m, rows, steps, lr = world, 256, 128, 32, 30, 0.1
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


def orthogonalize(p):
    """powerSGD_hook.py's _orthogonalize: Gram–Schmidt on the columns, epsilon 1e-8."""
    p = p.clone()
    for i in range(p.shape[1]):
        col = p[:, i:i + 1]
        col /= col.norm() + 1e-8
        if i + 1 < p.shape[1]:
            rest = p[:, i + 1:]
            rest -= (col * rest).sum(dim=0) * col
    return p


def power_sgd_all_reduce(g, s, seed):
    M = g + s["error"] if s["feedback"] and s["error"] is not None else g.clone()
    q0 = s["q"] if s["q"] is not None else random_normal([m, s["rank"]], 0, 1, seed=seed).to(device)
    q = orthogonalize(q0)
    p, bytes_p = all_reduce(M @ q)
    p = orthogonalize(p)
    q_new, bytes_q = all_reduce(M.t() @ p)
    q_new = q_new / N
    approx = p @ q_new.t()
    if s["feedback"]:
        s["error"] = M - approx
    s["q"] = q_new
    return approx, bytes_p + bytes_q


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
bf16, bf16_bytes, bf16_s = measure(lambda: bf16_all_reduce(G))
psgd, psgd_bytes, psgd_s = measure(
    lambda: power_sgd_all_reduce(G, {"rank": 4, "feedback": False, "q": None, "error": None}, 7)
)
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
    s = {"rank": 1, "feedback": mode == "feedback", "q": None, "error": None}
    W = W0.clone()
    for step in range(steps):
        g = gradient(W)
        avg = all_reduce(g)[0] / N if mode == "exact" else power_sgd_all_reduce(g, s, 100 + step)[0]
        W = W - avg * lr
    return W


w_exact, w_no, w_ef = train("exact"), train("no-feedback"), train("feedback")
loss_exact, loss_no, loss_ef = loss(w_exact), loss(w_no), loss(w_ef)
gap_no, gap_ef = rel_error(w_no, w_exact), rel_error(w_ef, w_exact)
if rank == 0:
    say(f"after {steps} steps: loss {fixed(loss_exact, 4)} exact, {fixed(loss_no, 4)} PowerSGD rank 1, {fixed(loss_ef, 4)} with error feedback")
    say(f"weights' relative distance to the exact run: {fixed(gap_no, 3)} without error feedback, {fixed(gap_ef, 3)} with")
    say(f"error feedback keeps {n * m * 4} bytes per rank: one more fp32 gradient")
say(f"error feedback brings PowerSGD closer to exact: {js_str(gap_ef < gap_no)}")
finish()
