import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(2, 1))
def kern(x, y):
    dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)

    def share(node):  # ERROR-HERE
        if node == 0:
            return 1

    @ttl.datamovement()
    def mover():
        col, _ = ttl.node(dims=2)
        for i in range(share(col)):
            with dfb.reserve() as blk:
                ttl.copy(x[0, 0], blk).wait()
            with dfb.wait() as blk:
                ttl.copy(blk, y[0, 0]).wait()


x = ttnn.from_torch(torch.ones(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(x, ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT))
