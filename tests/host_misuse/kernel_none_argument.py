import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a, y):
    rows = y.shape[0] // 32
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(rows, 1), block_count=2)

    @ttl.datamovement()
    def mover():
        with a_dfb.reserve() as blk:
            ttl.copy(a[0:rows, 0], blk).wait()
        with a_dfb.wait() as blk:
            ttl.copy(blk, y[0:rows, 0]).wait()


a = ttnn.from_torch(torch.ones(32, 32), layout=ttnn.TILE_LAYOUT)
kern(a, None)  # ERROR-HERE
