"""What 1.1.6 threads read of their objects and the statements they write: ``len(blk)`` (units in
a block), ``dfb.block_count`` and ``dfb.capacity_tiles`` as loop bounds and values, ``with
ttl.signpost(...)`` around a region, and a bare ``ttl.copy(...)`` statement (waited at once)."""
import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def members(x, y):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 2), block_count=3)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2), block_count=3)

    @ttl.compute()
    def label():
        for _ in range(x_dfb.block_count):
            with ttl.signpost("label"):
                with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                    y_blk.store(x_blk + float(len(x_blk) * 10 + x_dfb.capacity_tiles))

    @ttl.datamovement()
    def read():
        for i in range(x_dfb.block_count):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, 2 * i:2 * i + 2], blk)

    @ttl.datamovement()
    def write():
        for i in range(y_dfb.block_count):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[0, 2 * i:2 * i + 2])


x_host = torch.arange(32 * 32 * 6, dtype=torch.float32).reshape(32, 32 * 6) / 64
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 32 * 6), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
members(x, y)
assert torch.equal(ttnn.to_torch(y), x_host + 2 * 10 + 6)
