"""Error: broadcasting a block along a dimension whose extent is not 1 ((2, 1) along dim 0).

Expect: error E0105
"""

import torch
import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def broadcast_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(2, 1), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 2), block_count=1)

    @ttl.compute()
    def expand():
        with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            y_blk.store(ttl.block.broadcast(x_blk, dims=[0], shape=(2, 2)))  # ERROR-HERE

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0:2, 0:1], blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:2, 0:2]).wait()


device = ttnn.open_device(device_id=0)
x = ttnn.from_torch(torch.ones(64, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
broadcast_kernel(x, y)
ttnn.close_device(device)
