"""Tensors made without a ``layout=`` are in tile layout in the published simulator (issue 7
item 3): ``ttnn.from_torch(t, dtype=...)`` for the inputs, ``ttnn.empty(shape, dtype, ...)`` for
the output, then copied tile by tile through (1, 1) buffers.

Variants: from_torch empty
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

MADE_BY = sys.argv[1]
ROWS, COLS = 2, 2  # in tiles


@ttl.operation(grid=(1, 1))
def copy_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def negate():
        for _ in range(ROWS * COLS):
            with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                y_blk.store(-x_blk)

    @ttl.datamovement()
    def read():
        for r in range(ROWS):
            for c in range(COLS):
                with x_dfb.reserve() as blk:
                    ttl.copy(x[r, c], blk).wait()

    @ttl.datamovement()
    def write():
        for r in range(ROWS):
            for c in range(COLS):
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[r, c]).wait()


device = ttnn.open_device(device_id=0)
shape = (ROWS * 32, COLS * 32)
x_host = bf16_exact(shape, seed=32)
if MADE_BY == "from_torch":
    x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, device=device)
    y = ttnn.from_torch(torch.zeros(shape), dtype=ttnn.bfloat16, device=device)
else:
    x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    y = ttnn.empty(shape, ttnn.bfloat16, device=device)
copy_kernel(x, y)
assert torch.equal(ttnn.to_torch(y).float(), -x_host)
save_outputs(y=y)
ttnn.close_device(device)
