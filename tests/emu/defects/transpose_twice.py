"""Planted for a transposed block stored twice before its push (found by the ``--level cpp``
property campaign at seed 1, E5208 in two transpose programs): the first store packs the
block's three reserved pages in order, and an in-order second store went on to page 3, beyond
them. Since the repeated store addresses its pages (``pack_tile<true>``, tilecraft/metal/pack_order.py)
it overwrites the first store's tiles. ``sign(x) ** 3`` is -1, 0 or 1: exact in every format.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def transpose_twice(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 3), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(3, 1), block_count=1)

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0:1, 0:3], blk).wait()

    @ttl.compute()
    def math():
        with x_dfb.wait() as xb, y_dfb.reserve() as yb:
            t = ttl.math.transpose(ttl.math.sign(xb) ** 3)
            yb.store(t)
            yb.store(t)  # overwrites the first store's tiles

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as yb:
            ttl.copy(yb, y[0:3, 0:1]).wait()


torch.manual_seed(0)
x_host = torch.randn(32, 96).bfloat16().float()
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((96, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
transpose_twice(x, y)
assert torch.equal(ttnn.to_torch(y).float(), torch.sign(x_host).T ** 3)
