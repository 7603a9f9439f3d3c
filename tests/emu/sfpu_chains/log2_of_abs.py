"""y = log2(|x| + 1) on a float32 input, stored as the format the first argument names
(tests/emu/test_emitted_sfpu_chains.py). Issue 21: PCC 0 at --level cpp when stored to bfloat16."""

import sys

import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def log2_of_abs(x, y):
    rows = x.shape[0] // 32
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        for r in range(rows):
            with x_dfb.reserve() as blk:
                ttl.copy(x[r, 0], blk).wait()

    @ttl.compute()
    def compute():
        for _ in range(rows):
            with x_dfb.wait() as xb, y_dfb.reserve() as yb:
                yb.store(ttl.math.log2(ttl.math.abs(xb) + 1.0))

    @ttl.datamovement()
    def writer():
        for r in range(rows):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[r, 0]).wait()


torch.manual_seed(0)
values = torch.rand((64, 32)) * 8 - 4
values[0, :6] = torch.tensor([0.0, 1.0, 3.0, 7.0, 1023.0, -15.0])  # log2 of a power of two is exact
x = ttnn.from_torch(values, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 32), dtype=getattr(ttnn, sys.argv[1]), layout=ttnn.TILE_LAYOUT)
log2_of_abs(x, y)
