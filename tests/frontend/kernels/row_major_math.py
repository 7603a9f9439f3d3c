"""Block math on row-major (scalar-unit) blocks: simulated (the emitter rejects it: the FPU works on tiles).

``make_dataflow_buffer_like`` of a ``ROW_MAJOR_LAYOUT`` tensor counts its ``shape`` in
scalars, so the tensor need not be a multiple of 32 in any dimension: here a 10 x 24 tensor is
processed two rows at a time (blocks of 2 x 24 elements) and slices are in element
coordinates, ``x[r:r + 2, 0:24]``. Computes y = x * |x| + 0.5 (a signed square) in float32.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

ROWS_PER_BLOCK = 2


@ttl.operation(grid=(1, 1))
def signed_square(x: ttnn.Tensor, y: ttnn.Tensor):
    rows, cols = x.shape[0], x.shape[1]
    blocks = rows // ROWS_PER_BLOCK

    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(ROWS_PER_BLOCK, cols), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(ROWS_PER_BLOCK, cols), block_count=2)

    @ttl.datamovement()
    def read():
        for i in range(blocks):
            r = i * ROWS_PER_BLOCK
            with x_dfb.reserve() as blk:
                ttl.copy(x[r:r + ROWS_PER_BLOCK, 0:cols], blk).wait()

    # CHECK: expr<2x24, float32, scalar>
    @ttl.compute()
    def compute():
        for _ in range(blocks):
            with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                y_blk.store(x_blk * ttl.math.abs(x_blk) + 0.5)

    @ttl.datamovement()
    def write():
        for i in range(blocks):
            r = i * ROWS_PER_BLOCK
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[r:r + ROWS_PER_BLOCK, 0:cols]).wait()


torch.manual_seed(30)
x_host = torch.randn(10, 24)
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.ROW_MAJOR_LAYOUT)
y = ttnn.from_torch(torch.zeros(10, 24), dtype=ttnn.float32, layout=ttnn.ROW_MAJOR_LAYOUT)

signed_square(x, y)

got = ttnn.to_torch(y)
want = x_host * x_host.abs() + 0.5
assert torch.allclose(got, want, rtol=1e-5, atol=1e-6), (got - want).abs().max()

