import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(x, y):
    dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)

    def first_even(n):
        for i in range(n):
            if i % 2 == 0:
                return i  # ERROR-HERE
        return n

    @ttl.datamovement()
    def mover():
        for i in range(first_even(ttl.node(dims=1) + 1)):
            with dfb.reserve() as blk:
                ttl.copy(x[0, 0], blk).wait()
            with dfb.wait() as blk:
                ttl.copy(blk, y[0, 0]).wait()


x = ttnn.from_torch(torch.ones(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(x, ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT))
