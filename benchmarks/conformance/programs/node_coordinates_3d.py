"""``ttl.node`` and ``ttl.grid_size`` on a three-dimensional grid (2, 3, 2), where the two fold
differently: ``grid_size(dims=2)`` is ``(2, 3 * 2)`` but ``node(dims=2)`` is ``(x * 3 + y, z)``.

Each node writes, into the tile row of its linear index, one tile with a number built from its
``node(dims=1)``, both entries of ``node(dims=2)``, its ``node(dims=3)`` and ``node(dims=4)[3]``
(padding), and a second tile with one built from ``grid_size`` with 1, 2 and 4 dims.
"""

import torch
import ttl
import ttnn

from conformance_io import save_outputs

GRID = (2, 3, 2)
NODES = 12


@ttl.operation(grid=GRID)
def coordinates_3d(y: ttnn.Tensor):
    code_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)
    size_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.compute()
    def label():
        linear = ttl.node(dims=1)
        first, last = ttl.node(dims=2)
        x, y_, z = ttl.node(dims=3)
        pad = ttl.node(dims=4)[3]
        wide, rest = ttl.grid_size(dims=2)
        sizes = ttl.grid_size(dims=1) * 1000 + wide * 100 + rest * 10 + ttl.grid_size(dims=4)[3]
        with code_dfb.reserve() as blk:
            blk.store(ttl.block.fill(linear * 1000 + first * 100 + last * 10 + x + y_ * 0.25 + z * 0.125 + pad,
                                     shape=(1, 1)))
        with size_dfb.reserve() as blk:
            blk.store(ttl.block.fill(sizes, shape=(1, 1)))

    @ttl.datamovement()
    def idle():
        pass

    @ttl.datamovement()
    def write():
        linear = ttl.node(dims=1)
        with code_dfb.wait() as blk:
            ttl.copy(blk, y[linear, 0]).wait()
        with size_dfb.wait() as blk:
            ttl.copy(blk, y[linear, 1]).wait()


device = ttnn.open_device(device_id=0)
y = ttnn.from_torch(torch.zeros(32 * NODES, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=device)
coordinates_3d(y)
values = ttnn.to_torch(y).float()[::32, ::32]
expected = []
for x in range(2):
    for y_ in range(3):
        for z in range(2):
            linear = (x * 3 + y_) * 2 + z
            expected.append([linear * 1000 + (x * 3 + y_) * 100 + z * 10 + x + y_ * 0.25 + z * 0.125, 12261])
assert torch.equal(values, torch.tensor(expected)), values
save_outputs(y=y)
ttnn.close_device(device)
