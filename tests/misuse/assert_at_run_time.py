import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(2, 1))
def kern(x):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        node = ttl.node(dims=1)
        assert node < 2  # ERROR-HERE
        with x_dfb.reserve() as blk:
            ttl.copy(x[node, 0], blk).wait()


x = ttnn.from_torch(torch.ones(64, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x)
