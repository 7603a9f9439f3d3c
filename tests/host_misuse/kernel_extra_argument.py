import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a, y):
    @ttl.datamovement()
    def mover():
        pass


a = ttnn.from_torch(torch.ones(32, 32), layout=ttnn.TILE_LAYOUT)
kern(a, a, a)  # ERROR-HERE
