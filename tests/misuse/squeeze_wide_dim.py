import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(x, y):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 2), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2), block_count=2)

    @ttl.compute()
    def compute():
        with x_dfb.wait() as a, y_dfb.reserve() as b:
            b.store(ttl.block.squeeze(a, [1]))  # ERROR-HERE

    @ttl.datamovement()
    def mover():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0, 0:2], blk).wait()
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0:2]).wait()


x = ttnn.from_torch(torch.ones(32, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(x, ttnn.from_torch(torch.zeros(32, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT))
