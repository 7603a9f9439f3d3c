"""The seed's tensor-slice loop: columns of tiles split across cores, g tiles per block.

``core_num = ttl.core(dims=1)`` is evaluated in kernel scope, so ``start_ct``/``end_ct``
differ from core to core (each core's body runs with its own coordinates). Each core owns
``cols_per_core = ceil(col_tiles / cores)`` tile columns and walks them with blocks of
``g`` tiles stacked vertically: ``a[(rt * g):((rt + 1) * g), ct:(ct + 1)]``. There are 5 tile
columns on 4 cores (2 per core): ``min`` clips core 2 to one column and leaves core 3 with an
empty range, so the uneven split is exercised. Computes y = a * sigmoid(a) (SiLU) in bfloat16.
"""

import math

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(2, 2))
def silu_columns(a: ttnn.Tensor, y: ttnn.Tensor) -> None:
    g = 2  # granularity: tiles per block along the rows

    row_tiles = a.shape[0] // ttl.TILE_SHAPE[0]
    col_tiles = a.shape[1] // ttl.TILE_SHAPE[1]
    cols_per_core = math.ceil(col_tiles / ttl.grid_size(dims=1))

    core_num = ttl.core(dims=1)
    start_ct = core_num * cols_per_core
    end_ct = min(start_ct + cols_per_core, col_tiles)

    a_cb = ttl.make_circular_buffer_like(a, shape=(g, 1), buffer_factor=2)
    y_cb = ttl.make_circular_buffer_like(y, shape=(g, 1), buffer_factor=2)

    @ttl.datamovement()
    def read():
        for ct in range(start_ct, end_ct):
            for rt in range(row_tiles // g):
                with a_cb.reserve() as a_blk:
                    a_xf = ttl.copy(a[(rt * g):((rt + 1) * g), ct:(ct + 1)], a_blk)
                    a_xf.wait()

    @ttl.compute()
    def compute():
        for ct in range(start_ct, end_ct):
            for rt in range(row_tiles // g):
                with a_cb.wait() as a_blk, y_cb.reserve() as y_blk:
                    y_blk.store(a_blk * ttl.math.sigmoid(a_blk))

    @ttl.datamovement()
    def write():
        for ct in range(start_ct, end_ct):
            for rt in range(row_tiles // g):
                with y_cb.wait() as y_blk:
                    y_xf = ttl.copy(y_blk, y[(rt * g):((rt + 1) * g), ct:(ct + 1)])
                    y_xf.wait()

    return ttl.Program(compute, read, write)(a, y)


torch.manual_seed(1)
shape = (4 * 32, 5 * 32)
a_host = torch.randn(shape, dtype=torch.bfloat16)

a = ttnn.from_torch(a_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros(shape, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)

silu_columns(a, y)

got = ttnn.to_torch(y).float()
want = torch.nn.functional.silu(a_host.float())
assert torch.allclose(got, want, rtol=1e-2, atol=1e-2), (got - want).abs().max()
print("multicore_tensor_slices: OK")
