"""Error: a reduction whose ``shape`` argument is not the reduced shape ((2, 2) summed along
columns is (2, 1), not (1, 2)).

Expect: error E0105
"""

import torch
import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def reduce_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(2, 2), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2), block_count=1)

    @ttl.compute()
    def reduce():
        with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            y_blk.store(ttl.math.reduce_sum(x_blk, [1], (1, 2)))  # ERROR-HERE

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0:2, 0:2], blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:1, 0:2]).wait()


device = ttnn.open_device(device_id=0)
x = ttnn.from_torch(torch.ones(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
reduce_kernel(x, y)
ttnn.close_device(device)
