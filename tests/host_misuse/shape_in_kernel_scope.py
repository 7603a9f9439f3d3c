import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a):
    cols = a.shape[1] // 32  # ERROR-HERE

    @ttl.datamovement()
    def mover():
        pass


a = ttnn.from_torch(torch.ones(64), layout=ttnn.ROW_MAJOR_LAYOUT)
kern(a)
