"""PyTorch twin of 03-data-parallel-wrapper.ts: a data-parallel trainer that reuses a single-device trainer and
overrides only backward(), with one all-reduce per gradient. DistributedDataParallel does the same, in buckets.

Run: torchrun --nproc_per_node=4 03-data-parallel-wrapper.py   (ranks_twin.py next to this file)
"""
import torch
import torch.distributed as dist
import torch.nn.functional as F

from ranks_twin import exponential, fixed, js_str, random_normal, say, start, finish


class SingleDevice:
    def __init__(self, params):
        self.params = params

    def forward(self, x):
        return torch.tanh(x @ self.params["layer_0/weights"]) @ self.params["layer_1/weights"]

    def backward(self, x, y):
        """Gradients of the mean squared error on this device's rows."""
        for p in self.params.values():
            p.grad = None
        F.mse_loss(self.forward(x), y).backward()
        return {name: p.grad for name, p in self.params.items()}

    def step(self, x, y, lr):
        grads = self.backward(x, y)
        with torch.no_grad():
            for name, g in grads.items():
                self.params[name] -= lr * g


class DataParallel(SingleDevice):
    def backward(self, x, y):
        local = super().backward(x, y)  # 1. local gradients on this rank's rows
        synced = {}
        for name, g in local.items():  # 2. average (Gloo has no ReduceOp.AVG: sum, then divide)
            dist.all_reduce(g, op=dist.ReduceOp.SUM)
            synced[name] = g / dist.get_world_size()
        return synced


rank, world, device = start()
n, rows_per_rank, d, h, f, steps, lr = world, 8, 6, 10, 2, 10, 0.2
X = random_normal([n * rows_per_rank, d], 0, 1, seed=1).to(device)  # every rank builds the same data
Y = random_normal([n * rows_per_rank, f], 0, 1, seed=2).to(device)


def init():
    return {
        "layer_0/weights": random_normal([d, h], 0, 0.5, seed=3).to(device).requires_grad_(),
        "layer_1/weights": random_normal([h, f], 0, 0.5, seed=4).to(device).requires_grad_(),
    }


# Start from rank 0's weights, as DDP does at construction (here they are equal already, by seed).
ddp_params = init()
with torch.no_grad():
    for p in ddp_params.values():
        dist.broadcast(p, src=0)
ddp = DataParallel(ddp_params)
my_x = X[rank * rows_per_rank:(rank + 1) * rows_per_rank]
my_y = Y[rank * rows_per_rank:(rank + 1) * rows_per_rank]
for _ in range(steps):
    ddp.step(my_x, my_y, lr)

# Reference: one device, the whole batch, the same steps from the same initial values.
single = SingleDevice(init())
for _ in range(steps):
    single.step(X, Y, lr)

gap = max((ddp_params[k] - single.params[k]).abs().max().item() for k in ddp_params)
with torch.no_grad():
    loss = F.mse_loss(ddp.forward(X), Y).item()
say(f"rank {rank}: loss on the full batch after {steps} steps {fixed(loss, 4)}, max weight gap {exponential(gap, 1)}")
say(f"data-parallel weights match single device: {js_str(gap < 1e-5)}")
finish()
