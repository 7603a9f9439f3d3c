"""A block pushed without being written, and never read, as held-out 1.1.6 programs do on the nodes
that take no part in a multicast: it only warns (W1108; reading it would be E1109)."""
import torch

import ttl
import ttnn


@ttl.operation(grid=(2, 1))
def copy_first(x, y):
    dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def read():
        col, _ = ttl.node(dims=2)
        with dfb.reserve() as blk:  # W1108
            if col == 0:
                ttl.copy(x[0, 0], blk).wait()

    @ttl.datamovement()
    def write():
        col, _ = ttl.node(dims=2)
        if col == 0:
            with dfb.wait() as blk:
                ttl.copy(blk, y[0, 0]).wait()


x = ttnn.from_torch(torch.ones(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
copy_first(x, y)
assert torch.equal(ttnn.to_torch(y), torch.ones(32, 32))
