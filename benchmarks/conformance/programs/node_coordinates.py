"""``ttl.node`` and ``ttl.grid_size`` with 1, 2 and 3 dims, in threads, on a 2-column, 3-row grid.

Each node stores, in its own tile, ``grid_size(dims=1)``, the two entries of
``grid_size(dims=2)``, ``grid_size(dims=3)[2]`` (padding), its ``node(dims=2)`` and the third
entry of ``node(dims=3)``, as one number per tile row, in the tile its 2-D coordinates select.
"""

import torch
import ttl
import ttnn

from conformance_io import save_outputs

COLS, ROWS = 2, 3


@ttl.operation(grid=(COLS, ROWS))
def coordinates(y: ttnn.Tensor):
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.compute()
    def label():
        nodes = ttl.grid_size(dims=1)
        size_c, size_r = ttl.grid_size(dims=2)
        size_z = ttl.grid_size(dims=3)[2]
        col, row = ttl.node(dims=2)
        depth = ttl.node(dims=3)[2]
        code = nodes * 10000 + size_c * 1000 + size_r * 100 + size_z * 10 + depth
        with y_dfb.reserve() as blk:
            blk.store(ttl.block.fill(code + col * 0.25 + row * 0.0625, shape=(1, 1)))

    @ttl.datamovement()
    def idle():
        pass

    @ttl.datamovement()
    def write():
        col, row = ttl.node(dims=2)
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[row, col]).wait()


device = ttnn.open_device(device_id=0)
y = ttnn.from_torch(torch.zeros(32 * ROWS, 32 * COLS), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=device)
coordinates(y)
values = ttnn.to_torch(y).float()[::32, ::32]
expected = torch.tensor([[62310 + c * 0.25 + r * 0.0625 for c in range(COLS)] for r in range(ROWS)])
assert torch.equal(values, expected), values
save_outputs(y=y)
ttnn.close_device(device)
