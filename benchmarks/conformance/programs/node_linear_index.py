"""How ``ttl.node(dims=1)`` numbers the nodes of a 2-D grid (issue 7 item 6).

On a 3-column, 2-row grid every node writes its own 2-D coordinates, as ``8 * col + row``, into
the tile of a 1x6-tile row that its linear index selects. The published simulator numbers node
``(col, row)`` as ``col * rows + row``; a program that splits work by the linear index computes
something else when the order differs.
"""

import torch
import ttl
import ttnn

from conformance_io import save_outputs

COLS, ROWS = 3, 2


@ttl.operation(grid=(COLS, ROWS))
def where_am_i(y: ttnn.Tensor):
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.compute()
    def label():
        col, row = ttl.node(dims=2)
        with y_dfb.reserve() as blk:
            blk.store(ttl.block.fill(8 * col + row, shape=(1, 1)))

    @ttl.datamovement()
    def idle():
        pass

    @ttl.datamovement()
    def write():
        index = ttl.node(dims=1)
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, index]).wait()


device = ttnn.open_device(device_id=0)
y = ttnn.from_torch(torch.zeros(32, 32 * COLS * ROWS), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
where_am_i(y)
labels = ttnn.to_torch(y).float()[0, ::32]
assert sorted(labels.tolist()) == sorted(8.0 * c + r for c in range(COLS) for r in range(ROWS))
save_outputs(y=y)
ttnn.close_device(device)
