import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(2, 2))
def kern(a):
    spare = ttl.Pipe(src=(0, 0), dst=(2, 0))  # ERROR-HERE

    @ttl.datamovement()
    def mover():
        pass


a = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(a)
