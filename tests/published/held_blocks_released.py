"""Blocks of dataflow buffers acquired without ``with`` and never released by name, as 1.1.6
programs write them: the next ``reserve()`` of a buffer pushes the previous block, the next
``wait()`` pops it, and a thread's last blocks are released when it ends (also on the paths
where it holds one only sometimes)."""
import torch

import ttl
import ttnn

TILES = 5


@ttl.operation(grid=(1, 1))
def cube(x, y):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def compute():
        for t in range(TILES):
            x_blk = x_dfb.wait()
            y_blk = y_dfb.reserve()
            y_blk.store(x_blk * x_blk * x_blk)
            if t % 2 == 0:  # released by name on some iterations only: a flag tracks the others
                y_blk.push()

    @ttl.datamovement()
    def read():
        for t in range(TILES):
            blk = x_dfb.reserve()
            ttl.copy(x[0, t], blk).wait()

    @ttl.datamovement()
    def write():
        for t in range(TILES):
            blk = y_dfb.wait()
            ttl.copy(blk, y[0, t]).wait()


x_host = torch.linspace(-2, 2, 32 * 32 * TILES).reshape(32, 32 * TILES)
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 32 * TILES), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
cube(x, y)
assert torch.equal(ttnn.to_torch(y), x_host * x_host * x_host)
