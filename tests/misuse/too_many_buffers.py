import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a, y):
    # 41 buffers: a Wormhole core has 32 circular buffers (NUM_CIRCULAR_BUFFERS), a Blackhole core 64
    dfbs = [ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=1) for _ in range(41)]  # ERROR-HERE
    last = dfbs[40]

    @ttl.datamovement()
    def reader():
        with last.reserve() as blk:
            ttl.copy(a[0, 0], blk).wait()

    @ttl.datamovement()
    def writer():
        with last.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


a = ttnn.from_torch(torch.rand(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(a, y)
assert torch.equal(ttnn.to_torch(y), ttnn.to_torch(a))
