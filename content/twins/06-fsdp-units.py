"""PyTorch twin of 06-fsdp-units.ts: FSDP's wrapping units by hand. Gather one layer's parameters at a time
(prefetching the next while the current one computes), then free them: peak gathered memory is about two units.
FSDP2 does exactly this per module you pass to torch.distributed.fsdp.fully_shard:

    for layer in model.layers: fully_shard(layer)
    fully_shard(model)

Run: torchrun --nproc_per_node=4 06-fsdp-units.py   (ranks_twin.py next to this file)
On CPUs (Gloo) it needs PyTorch 2.3 or newer, whose Gloo has all_gather_into_tensor.
"""
import torch
import torch.distributed as dist

from ranks_twin import fixed, js_str, random_normal, say, start, finish

rank, world, device = start()
layers, width, n = 6, 256, world
layer_size = width * width
shard = layer_size // n
# Each rank owns 1/n of every layer, flattened: exactly what FULL_SHARD stores.
full = [random_normal([layer_size], 0, 0.05, seed=1 + i).to(device) for i in range(layers)]  # seed 0 means unseeded in tfjs
shards = [p[rank * shard:(rank + 1) * shard].clone() for p in full]
x = random_normal([8, width], 0, 1, seed=99).to(device)

# Bytes of gathered (unsharded) parameters alive at once, counted when a gather is issued.
live = peak = 0


def gather_layer(i):
    global live, peak
    live += layer_size * 4
    peak = max(peak, live)
    out = torch.empty(layer_size, device=device)
    return out, dist.all_gather_into_tensor(out, shards[i], async_op=True)


h = x
nxt = gather_layer(0)
for i in range(layers):
    gathered, work = nxt
    work.wait()
    if i + 1 < layers:
        nxt = gather_layer(i + 1)  # prefetch: the next unit arrives while this one computes
    h = torch.relu(h @ gathered.reshape(width, width))
    del gathered, work  # free the unit after use
    live -= layer_size * 4

reference = x
for w in full:
    reference = torch.relu(reference @ w.reshape(width, width))
diff = (h - reference).abs().max().item()
whole_model = layers * layer_size * 4
say(f"rank {rank}: stores {layers * shard * 4} B of shards; peak gathered {peak} B vs {whole_model} B for the whole model")
say(f"peak is {fixed(peak / (layer_size * 4), 0)} units of {layers}; output matches unsharded model: {js_str(diff < 1e-4)}")
finish()
