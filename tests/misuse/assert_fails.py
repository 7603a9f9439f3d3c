import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(x):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 2), block_count=2)

    @ttl.datamovement()
    def reader():
        with x_dfb.reserve() as blk:
            assert blk.shape == (1, 1), "one tile per block"  # ERROR-HERE
            ttl.copy(x[0, 0:2], blk).wait()


x = ttnn.from_torch(torch.ones(32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x)
