"""Run the MatmulWidthShardedWeight micro-op once, as a script: what ``tilecraft profile`` times.

    tilecraft profile examples/microops/profile_matmul.py     # kernel-level line table of its C++ kernels
    tilecraft run examples/microops/profile_matmul.py         # just run it on the emulator

A [1, 1024] activation on core (0, 4) against a [1024, 1024] weight width-sharded over the eight
cores of row 0: each core pulls the activation over the NoC and runs 32 ``matmul_block`` steps.
"""

from __future__ import annotations

import os
import sys

import torch
import ttnn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from matmul.op import MatmulWidthShardedWeight  # noqa: E402
from shards import core_grid, sharded  # noqa: E402

from tilecraft.testing import comp_pcc  # noqa: E402

K, N = 1024, 1024


def main() -> int:
    torch.manual_seed(0)
    cores = core_grid(0, 0, 7, 0)
    shard_n = N // cores.num_cores()
    act_host = torch.randn(1, K).to(torch.bfloat16)
    weight_host = torch.randn(K, N).to(torch.bfloat16)
    device = ttnn.open_device(device_id=0)
    try:
        act = ttnn.from_torch(act_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                              memory_config=sharded("height", core_grid(0, 4, 0, 4), (32, K)))
        weight = ttnn.from_torch(weight_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                                 memory_config=sharded("width", cores, (K, shard_n)))
        out = ttnn.from_torch(torch.zeros(1, N), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                              memory_config=sharded("width", cores, (32, shard_n)))
        result = ttnn.to_torch(MatmulWidthShardedWeight.op(act, weight, out)).float()
    finally:
        ttnn.close_device(device)
    passing, message = comp_pcc(MatmulWidthShardedWeight.golden(act_host, weight_host), result, 0.999)
    print(f"matmul [1, {K}] x [{K}, {N}]: {message}")
    return 0 if passing else 1


if __name__ == "__main__":
    sys.exit(main())
