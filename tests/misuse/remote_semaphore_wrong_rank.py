import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(2, 2))
def kern(a):
    sem = ttl.Semaphore()
    far = sem.get_remote((1, 0, 0))  # ERROR-HERE

    @ttl.datamovement()
    def mover():
        pass

    return ttl.Program(mover)(a)


a = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(a)
