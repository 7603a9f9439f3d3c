"""Planted for defect 3 (reduce_uninit before the pack): row sums of one bfloat16 tile, every
buffer bfloat16 so that no format mismatch comes first.

The packer keeps only the reduced column (its edge mask) while the reduce is initialised;
reduce_uninit() clears that mask, so a pack after it writes the 31 other columns of DST too.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def row_sums(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0, 0], blk).wait()

    @ttl.compute()
    def reduce():
        with x_dfb.wait() as blk, y_dfb.reserve() as out:
            out.store(ttl.math.reduce_sum(blk, dims=[1], shape=(1, 1)))

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


torch.manual_seed(0)
x = ttnn.from_torch(torch.randn(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
row_sums(x, y)
