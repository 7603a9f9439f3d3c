import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def compute():
        blk = a_dfb.wait()
        for _ in range(3):
            with y_dfb.reserve() as out:
                out.store(blk)  # ERROR-HERE
            blk.pop()
            blk = a_dfb.wait()
        blk.pop()

    @ttl.datamovement()
    def reader():
        for k in range(4):
            with a_dfb.reserve() as blk:
                ttl.copy(a[0, k], blk).wait()

    @ttl.datamovement()
    def writer():
        for k in range(3):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[0, k]).wait()


a = ttnn.from_torch(torch.ones(32, 128), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 96), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(a, y)
