import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(x):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0, 0], blk).wait()
            ttl.copy(blk, blk).wait()  # ERROR-HERE


x = ttnn.from_torch(torch.ones(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x)
