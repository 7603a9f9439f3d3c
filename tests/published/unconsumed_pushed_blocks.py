"""A reader pushes two blocks and the writer consumes one: the device leaves the other in L1 when
the program ends, the published simulator accepts it, tilecraft warns (W1105) at the push."""

import torch
import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def first_tile(x, y):
    dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        for i in range(2):
            with dfb.reserve() as blk:  # W1105
                ttl.copy(x[i, 0], blk).wait()

    @ttl.datamovement()
    def writer():
        with dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


x = ttnn.from_torch(torch.arange(64 * 32, dtype=torch.float32).reshape(64, 32), dtype=ttnn.float32,
                    layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
first_tile(x, y)
assert torch.equal(ttnn.to_torch(y), ttnn.to_torch(x)[:32])
