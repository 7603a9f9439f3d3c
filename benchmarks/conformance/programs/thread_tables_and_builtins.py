"""Python that user threads write around their loops: tables indexed by the node, ``reversed(range(...))``,
``divmod``, and ``assert`` on shapes.

Each of three nodes looks up its share of the tiles in module tables at run time
(``COUNTS[node]``, ``FIRST[node]``, a table of ``(scale, offset)`` pairs, and ``SHIFT[node - 3]``, a
negative index), walks its tiles backwards with ``reversed(range(first, first + count))`` in the
reader and in pairs, ``reversed(range(first, end, 2))``, in the writer, finds each tile's place with
``divmod(tile, COLS)``, and asserts the block shapes it relies on.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

ROWS, COLS = 2, 3
COUNTS = [3, 1, 2]
FIRST = (0, 3, 4)
SCALE_OFFSET = ((2.0, 0.0), (1.0, 0.5), (3.0, -1.0))
SHIFT = [0.0, 0.25, 0.5]


@ttl.operation(grid=(3, 1))
def tables_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def compute():
        node = ttl.node(dims=1)
        scale, offset = SCALE_OFFSET[node]
        for _ in range(COUNTS[node]):
            with x_dfb.wait() as blk, y_dfb.reserve() as out:
                assert blk.shape == (1, 1), "one tile per block"
                out.store(blk * ttl.block.fill(scale, shape=(1, 1))
                          + ttl.block.fill(offset + SHIFT[node - 3], shape=(1, 1)))

    @ttl.datamovement()
    def read():
        node = ttl.node(dims=1)
        first = FIRST[node]
        for tile in reversed(range(first, first + COUNTS[node])):
            row, col = divmod(tile, COLS)
            with x_dfb.reserve() as blk:
                ttl.copy(x[row, col], blk).wait()

    @ttl.datamovement()
    def write():
        node = ttl.node(dims=1)
        first = FIRST[node]
        last = first + COUNTS[node] - 1
        for start in reversed(range(first, first + COUNTS[node], 2)):
            for tile in reversed(range(start, min(start + 2, last + 1))):
                row, col = divmod(tile, COLS)
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[row, col]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((32 * ROWS, 32 * COLS), seed=43)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(x_host.shape), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
tables_kernel(x, y)
expected = torch.zeros(x_host.shape)
for node in range(3):
    scale, offset = SCALE_OFFSET[node]
    for tile in range(FIRST[node], FIRST[node] + COUNTS[node]):
        row, col = divmod(tile, COLS)
        window = (slice(row * 32, row * 32 + 32), slice(col * 32, col * 32 + 32))
        expected[window] = x_host[window] * scale + (offset + SHIFT[node])
assert torch.allclose(ttnn.to_torch(y).float(), expected, rtol=1e-2, atol=2e-2)
save_outputs(y=y)
ttnn.close_device(device)
