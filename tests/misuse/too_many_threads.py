import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a):
    @ttl.datamovement()
    def first():
        pass

    @ttl.datamovement()
    def second():
        pass

    @ttl.datamovement()  # ERROR-HERE
    def third():
        pass


a = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(a)
