"""Regenerates tests/reference/mlp-reference.json from real PyTorch (single process, then torchrun at 2 and 4 ranks).

Usage: /usr/bin/python3 tests/reference/regenerate.py [OUT.json]   (default: next to this file)
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TWIN = os.path.join(HERE, "mlp_twin.py")
WORLD_SIZES = (2, 4)


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "mlp-reference.json")
    with tempfile.TemporaryDirectory() as tmp:
        single = os.path.join(tmp, "single.json")
        subprocess.run([sys.executable, TWIN, "--single", single], check=True)
        with open(single) as f:
            result = json.load(f)
        result["shards"] = {}
        for world in WORLD_SIZES:
            part = os.path.join(tmp, f"ws{world}.json")
            subprocess.run(
                # localhost:0: torchrun picks a free port (torch 1.13's --standalone always takes 29400).
                [sys.executable, "-m", "torch.distributed.run", "--rdzv_backend", "c10d",
                 "--rdzv_endpoint", "localhost:0", "--nnodes", "1", "--nproc_per_node", str(world),
                 "--redirects", "1", "--tee", "1", TWIN, "--distributed", part],
                check=True, env={**os.environ, "OMP_NUM_THREADS": "1"}, stdout=subprocess.DEVNULL,
            )
            with open(part) as f:
                data = json.load(f)
            result["shards"][str(world)] = data["shards"]
            result["runs"].update(data["runs"])
    result["generator"] = "tests/reference/regenerate.py (torch %s, gloo)" % torch_version()
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print(f"wrote {out_path}: {len(result['runs'])} runs")


def torch_version():
    import torch
    return torch.__version__


if __name__ == "__main__":
    main()
