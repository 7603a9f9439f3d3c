import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def compute():
        with y_dfb.reserve() as out:
            acc = None
            for _ in range(4):
                with a_dfb.wait() as blk:
                    acc = blk if acc is None else acc + blk  # ERROR-HERE
            out.store(acc)

    @ttl.datamovement()
    def reader():
        for k in range(4):
            with a_dfb.reserve() as blk:
                ttl.copy(a[0, k], blk).wait()

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


a = ttnn.from_torch(torch.ones(32, 128), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(a, y)
