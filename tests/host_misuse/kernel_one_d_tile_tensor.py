import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1,), block_count=2)

    @ttl.datamovement()
    def mover():
        with a_dfb.reserve() as blk:
            ttl.copy(a[0], blk).wait()


a = ttnn.from_torch(torch.ones(4096), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.ones(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(a, y)  # ERROR-HERE
