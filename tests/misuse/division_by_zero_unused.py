import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(2, 1))
def kern(a):
    node = ttl.node(dims=1)

    @ttl.datamovement()
    def reader():
        unused = 10 // node  # ERROR-HERE


a = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(a)
