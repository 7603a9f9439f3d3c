import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a, b, y):
    # the mistake is found when the compute thread compiles: no data movement is needed
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def compute():
        with a_dfb.wait() as x, b_dfb.wait() as z, y_dfb.reserve() as out:
            out.store(max(x, z))  # ERROR-HERE


a, b, y = (ttnn.from_torch(torch.ones(32, 32), layout=ttnn.TILE_LAYOUT) for _ in range(3))
kern(a, b, y)
