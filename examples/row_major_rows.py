"""A row-major tensor: buffers whose shape unit is one element, not one 32x32 tile.

``make_dataflow_buffer_like`` of a ``ROW_MAJOR_LAYOUT`` tensor counts its ``shape`` in
scalars, so the tensor need not be a multiple of 32 in any dimension: here a 10 x 24 tensor is
moved two rows at a time (blocks of 2 x 24 elements), with slices in element coordinates,
``x[r:r + 2, 0:24]``. A data-movement-only program (no compute thread): the row pairs come out in
reverse order. (Block math needs tiles on the device; tests/frontend/kernels/row_major_math.py shows it in
the simulator.)
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

ROWS_PER_BLOCK = 2


@ttl.operation(grid=(1, 1))
def reverse_row_pairs(x: ttnn.Tensor, y: ttnn.Tensor):
    rows, cols = x.shape[0], x.shape[1]
    blocks = rows // ROWS_PER_BLOCK
    rows_dfb = ttl.make_dataflow_buffer_like(x, shape=(ROWS_PER_BLOCK, cols), block_count=2)

    @ttl.datamovement()
    def read():
        for i in range(blocks):
            r = i * ROWS_PER_BLOCK
            with rows_dfb.reserve() as blk:
                ttl.copy(x[r:r + ROWS_PER_BLOCK, 0:cols], blk).wait()

    @ttl.datamovement()
    def write():
        for i in range(blocks):
            r = (blocks - 1 - i) * ROWS_PER_BLOCK
            with rows_dfb.wait() as blk:
                ttl.copy(blk, y[r:r + ROWS_PER_BLOCK, 0:cols]).wait()


torch.manual_seed(30)
x_host = torch.randn(10, 24)
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.ROW_MAJOR_LAYOUT)
y = ttnn.from_torch(torch.zeros(10, 24), dtype=ttnn.float32, layout=ttnn.ROW_MAJOR_LAYOUT)

reverse_row_pairs(x, y)

want = x_host.reshape(5, 2, 24).flip(0).reshape(10, 24)
assert torch.equal(ttnn.to_torch(y), want)
print("row_major_rows: OK")
