import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(y):
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(5, 6), block_count=2)

    @ttl.compute()
    def compute():
        with y_dfb.reserve() as out:
            out.store(ttl.block.fill(1.0, shape=(9, 9)))  # ERROR-HERE

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:5, 0:6]).wait()


y = ttnn.empty((5, 6), dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT)
kern(y)
