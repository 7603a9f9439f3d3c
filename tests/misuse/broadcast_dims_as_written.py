import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(x, y):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(2, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 2), block_count=2)

    @ttl.compute()
    def compute():
        with x_dfb.wait() as blk, y_dfb.reserve() as out:
            out.store(ttl.block.broadcast(blk, dims=[0], shape=(2, 2)))  # ERROR-HERE


x = ttnn.from_torch(torch.ones(64, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.ones(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
