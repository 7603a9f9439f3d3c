"""ttl.node(dims=1) numbers the nodes of a (X, Y) grid x * Y + y, as the published simulator does:
each node writes its linear index into the tile of that index."""
import torch

import ttl
import ttnn

X, Y = 2, 3


@ttl.operation(grid=(X, Y))
def stamp(y):
    dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def fill():
        x, yy = ttl.node(dims=2)
        with dfb.reserve() as blk:
            blk.store(ttl.block.fill(float(x * 10 + yy), shape=(1, 1)))

    @ttl.datamovement()
    def write():
        with dfb.wait() as blk:
            ttl.copy(blk, y[0, ttl.node(dims=1)]).wait()

    @ttl.datamovement()
    def idle():
        pass


y = ttnn.from_torch(torch.zeros(32, 32 * X * Y), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
stamp(y)
got = ttnn.to_torch(y)[0, ::32].tolist()
assert got == [x * 10 + yy for x in range(X) for yy in range(Y)], got
