import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a):
    @ttl.datamovement()
    def spinner():
        i = 0
        phase = 0
        while i < 10:  # ERROR-HERE
            phase = (phase + 1) % 3  # i is never updated


a = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(a)
