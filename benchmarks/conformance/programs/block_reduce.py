"""``ttl.math.reduce_sum`` / ``reduce_max`` of a (2, 3)-tile block along rows, columns and both,
with the scaler-less 1.1.6 signature ``reduce(x, dims, shape)``.

The result is stored into a block of the reduced shape; the inputs are multiples of 1/8 with few
enough terms that every sum is exact in float32.

Variants: sum_columns sum_rows sum_both max_columns max_rows max_both
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

KIND, ALONG = sys.argv[1].split("_")
ROWS, COLS = 2, 3  # source shape in tiles
DIMS = {"columns": [1], "rows": [0], "both": [0, 1]}[ALONG]
RESULT = {"columns": (ROWS, 1), "rows": (1, COLS), "both": (1, 1)}[ALONG]


@ttl.operation(grid=(1, 1))
def reduce_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(ROWS, COLS), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=RESULT, block_count=1)

    @ttl.compute()
    def reduce():
        with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            if KIND == "sum":
                y_blk.store(ttl.math.reduce_sum(x_blk, DIMS, RESULT))
            else:
                y_blk.store(ttl.math.reduce_max(x_blk, DIMS, RESULT))

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as x_blk:
            ttl.copy(x[0:ROWS, 0:COLS], x_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0:RESULT[0], 0:RESULT[1]]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((ROWS * 32, COLS * 32), seed=18, step=0.125)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(RESULT[0] * 32, RESULT[1] * 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT,
                    device=device)
reduce_kernel(x, y)
result = ttnn.to_torch(y).float()
reduced_dims = [d for d in (0, 1) if d in DIMS]
whole = x_host.sum(dim=reduced_dims) if KIND == "sum" else x_host.amax(dim=reduced_dims)
# the reduced values sit in column 0 (rows reduced away: row 0) of the result tiles
placed = {"columns": result[:, 0], "rows": result[0, :], "both": result[0, 0]}[ALONG]
assert torch.allclose(placed, whole, rtol=1e-2, atol=1e-2), (placed, whole)
save_outputs(y=y)
ttnn.close_device(device)
