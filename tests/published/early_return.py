"""``return`` before the end of a thread, in the 1.1.6 idioms: ``if not net.is_active(): return``,
a return inside a ``with`` (its blocks are released first, as Python runs ``__exit__``) and inside
a loop; and a helper that returns from runtime branches (``get_tiles_per_core(node)``)."""
import torch

import ttl
import ttnn

WORKERS, TILES = 3, 4


@ttl.operation(grid=(4, 1))
def scaled(x, y):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    def tiles_of(node):  # a runtime value: the returns sit in runtime branches
        if node == 0:
            return TILES
        elif node < WORKERS:
            return TILES - node
        return 0

    @ttl.compute()
    def scale():
        node = ttl.node(dims=1)
        if node >= WORKERS:
            return
        for t in range(TILES):
            with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                y_blk.store(x_blk * 2.0 + float(node))
                if t + 1 == tiles_of(node):
                    return  # inside the with: both blocks are released first

    @ttl.datamovement()
    def read():
        node = ttl.node(dims=1)
        for t in range(TILES):
            if t == tiles_of(node):
                return  # inside a loop
            with x_dfb.reserve() as blk:
                ttl.copy(x[node, t], blk).wait()

    @ttl.datamovement()
    def write():
        node = ttl.node(dims=1)
        for t in range(tiles_of(node)):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[node, t]).wait()


x_host = torch.arange(4 * 32 * TILES * 32, dtype=torch.float32).reshape(4 * 32, TILES * 32) / 1024
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(4 * 32, TILES * 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
scaled(x, y)
expected = torch.zeros(4 * 32, TILES * 32)
for node, count in enumerate([TILES, TILES - 1, TILES - 2, 0]):
    rows, cols = slice(node * 32, node * 32 + 32), slice(0, count * 32)
    expected[rows, cols] = x_host[rows, cols] * 2 + node
assert torch.equal(ttnn.to_torch(y), expected), (ttnn.to_torch(y) - expected).abs().max()
