"""``ttl.block.broadcast(x, dims=..., shape=...)`` along columns, rows and both, added to a block.

The source is one tile wide (or high, or both) and is read from a tensor whose every element is
set, so the result also shows which element of a tile the broadcast replicates.

Variants: columns rows both
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

ALONG = sys.argv[1]
ROWS, COLS = 2, 3  # target shape in tiles
SOURCE = {"columns": (ROWS, 1), "rows": (1, COLS), "both": (1, 1)}[ALONG]
DIMS = {"columns": [1], "rows": [0], "both": [0, 1]}[ALONG]


@ttl.operation(grid=(1, 1))
def broadcast_kernel(x: ttnn.Tensor, z: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=SOURCE, block_count=1)
    z_dfb = ttl.make_dataflow_buffer_like(z, shape=(ROWS, COLS), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(ROWS, COLS), block_count=1)

    @ttl.compute()
    def expand():
        with x_dfb.wait() as x_blk, z_dfb.wait() as z_blk, y_dfb.reserve() as y_blk:
            y_blk.store(z_blk + ttl.block.broadcast(x_blk, dims=DIMS, shape=(ROWS, COLS)))

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as x_blk, z_dfb.reserve() as z_blk:
            ttl.copy(x[0:SOURCE[0], 0:SOURCE[1]], x_blk).wait()
            ttl.copy(z[0:ROWS, 0:COLS], z_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0:ROWS, 0:COLS]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((SOURCE[0] * 32, SOURCE[1] * 32), seed=16, step=0.25)
z_host = bf16_exact((ROWS * 32, COLS * 32), seed=17, step=0.25)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


x, z, y = to_device(x_host), to_device(z_host), to_device(torch.zeros(ROWS * 32, COLS * 32))
broadcast_kernel(x, z, y)
seed = {"columns": x_host[:, 0:1], "rows": x_host[0:1, :], "both": x_host[0:1, 0:1]}[ALONG]  # column / row 0
expected = z_host + seed.expand_as(z_host)
assert torch.allclose(ttnn.to_torch(y).float(), expected)
save_outputs(y=y)
ttnn.close_device(device)
