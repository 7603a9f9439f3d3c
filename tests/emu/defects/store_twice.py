"""Planted for a block packed twice before its push (found by the ``--level cpp`` property
campaign, E5412): ``yb`` is stored twice and ``zb`` once per iteration of a loop inside its
reservation. In-order ``pack_tile`` ignores its page index and packs after the pages already
packed since the last push, so the second store went past the reserved pages; the repeated
stores now address their pages (``pack_tile<true>``) and overwrite the first store's tiles.
Blocks of 2x3 tiles take two DST chunks per store; every value is exact in bfloat16.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def store_twice(x: ttnn.Tensor, y: ttnn.Tensor, z: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(2, 3), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 3), block_count=2)
    z_dfb = ttl.make_dataflow_buffer_like(z, shape=(2, 3), block_count=2)

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0:2, 0:3], blk).wait()

    @ttl.compute()
    def math():
        with x_dfb.wait() as xb, y_dfb.reserve() as yb, z_dfb.reserve() as zb:
            yb.store(xb + 1.0)
            yb.store(xb * 2.0)  # overwrites the first store's tiles
            for _ in range(2):
                zb.store(xb * 0.5)

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as yb, z_dfb.wait() as zb:
            ttl.copy(yb, y[0:2, 0:3]).wait()
            ttl.copy(zb, z[0:2, 0:3]).wait()


torch.manual_seed(0)
x_host = torch.randn(64, 96).bfloat16().float()
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 96), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
z = ttnn.zeros((64, 96), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
store_twice(x, y, z)
assert torch.equal(ttnn.to_torch(y).float(), x_host * 2.0)
assert torch.equal(ttnn.to_torch(z).float(), x_host * 0.5)
