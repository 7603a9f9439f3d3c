"""Error: an elementwise operation between a tile-layout block and a row-major block of the same
shape (two tiles, and 2x2 elements): the units differ.

Expect: error E0105
"""

import torch
import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def mixed_kernel(t: ttnn.Tensor, r: ttnn.Tensor, y: ttnn.Tensor):
    t_dfb = ttl.make_dataflow_buffer_like(t, shape=(2, 2), block_count=1)
    r_dfb = ttl.make_dataflow_buffer_like(r, shape=(2, 2), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 2), block_count=1)

    @ttl.compute()
    def add():
        with t_dfb.wait() as t_blk, r_dfb.wait() as r_blk, y_dfb.reserve() as y_blk:
            y_blk.store(t_blk + r_blk)  # ERROR-HERE

    @ttl.datamovement()
    def read():
        with t_dfb.reserve() as t_blk, r_dfb.reserve() as r_blk:
            ttl.copy(t[0:2, 0:2], t_blk).wait()
            ttl.copy(r[0:2, 0:2], r_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0:2, 0:2]).wait()


device = ttnn.open_device(device_id=0)
t = ttnn.from_torch(torch.ones(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
r = ttnn.from_torch(torch.ones(2, 2), dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
mixed_kernel(t, r, y)
ttnn.close_device(device)
