"""Error: the compute thread waits for three blocks, the reader produces two (a deadlock).

Expect: error E2111
"""

import torch
import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def starving_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def forward():
        for _ in range(3):
            with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:  # ERROR-HERE
                y_blk.store(x_blk + x_blk)

    @ttl.datamovement()
    def read():
        for c in range(2):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, c], blk).wait()

    @ttl.datamovement()
    def write():
        for c in range(3):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[0, c]).wait()


device = ttnn.open_device(device_id=0)
x = ttnn.from_torch(torch.ones(32, 96), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 96), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
starving_kernel(x, y)
ttnn.close_device(device)
