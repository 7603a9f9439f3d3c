"""y = softsign(log(|a| + 1) - log2(|b| + 2)) with a in bfloat8_b and b in float32, stored as the
format the first argument names (tests/emu/test_emitted_sfpu_chains.py; issue 21)."""

import sys

import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def log_softsign(a, b, y):
    rows = a.shape[0] // 32
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        for r in range(rows):
            with a_dfb.reserve() as ab, b_dfb.reserve() as bb:
                ttl.copy(a[r, 0], ab).wait()
                ttl.copy(b[r, 0], bb).wait()

    @ttl.compute()
    def compute():
        for _ in range(rows):
            with a_dfb.wait() as ab, b_dfb.wait() as bb, y_dfb.reserve() as yb:
                yb.store(ttl.math.softsign(ttl.math.log(ttl.math.abs(ab) + 1.0)
                                           - ttl.math.log2(ttl.math.abs(bb) + 2.0)))

    @ttl.datamovement()
    def writer():
        for r in range(rows):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[r, 0]).wait()


torch.manual_seed(1)
a = ttnn.from_torch(torch.rand((64, 32)) * 8 - 4, dtype=ttnn.bfloat8_b, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(torch.rand((64, 32)) * 8 - 4, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 32), dtype=getattr(ttnn, sys.argv[1]), layout=ttnn.TILE_LAYOUT)
log_softsign(a, b, y)
