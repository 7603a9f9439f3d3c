"""Error: copying a (1, 2)-tile slice of a tensor into a (1, 1) block.

Expect: error E0106
"""

import torch
import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def copy_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.compute()
    def double():
        with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            y_blk.store(x_blk + x_blk)

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0:1, 0:2], blk).wait()  # ERROR-HERE

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


device = ttnn.open_device(device_id=0)
x = ttnn.from_torch(torch.ones(32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
copy_kernel(x, y)
ttnn.close_device(device)
