"""Error: a matrix product whose inner dimensions differ, (1, 2) @ (1, 2) tiles.

Expect: error E0105
"""

import torch
import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def matmul_kernel(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 2), block_count=1)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 2), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2), block_count=1)

    @ttl.compute()
    def multiply():
        with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
            y_blk.store(a_blk @ b_blk)  # ERROR-HERE

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
            ttl.copy(a[0:1, 0:2], a_blk).wait()
            ttl.copy(b[0:1, 0:2], b_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0:1, 0:2]).wait()


device = ttnn.open_device(device_id=0)
t = ttnn.from_torch(torch.ones(32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
matmul_kernel(t, t, y)
ttnn.close_device(device)
