"""Row-major tensors and buffers: shapes and slices counted in elements, not tiles.

Two 8x48 row-major bfloat16 tensors are added four rows at a time (``shape=(4, 48)``
buffers); ``a * b - a`` on row-major blocks.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

ROWS, COLS, STEP = 8, 48, 4


@ttl.operation(grid=(1, 1))
def rows_kernel(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(STEP, COLS), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(STEP, COLS), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(STEP, COLS), block_count=2)

    @ttl.compute()
    def combine():
        for _ in range(ROWS // STEP):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
                y_blk.store(a_blk * b_blk - a_blk)

    @ttl.datamovement()
    def read():
        for r in range(0, ROWS, STEP):
            with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                ttl.copy(a[r:r + STEP, 0:COLS], a_blk).wait()
                ttl.copy(b[r:r + STEP, 0:COLS], b_blk).wait()

    @ttl.datamovement()
    def write():
        for r in range(0, ROWS, STEP):
            with y_dfb.wait() as y_blk:
                ttl.copy(y_blk, y[r:r + STEP, 0:COLS]).wait()


device = ttnn.open_device(device_id=0)
a_host = bf16_exact((ROWS, COLS), seed=30)
b_host = bf16_exact((ROWS, COLS), seed=31)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device)


a, b, y = to_device(a_host), to_device(b_host), to_device(torch.zeros(ROWS, COLS))
rows_kernel(a, b, y)
assert torch.allclose(ttnn.to_torch(y).float(), a_host * b_host - a_host, rtol=1e-2, atol=1e-2)
save_outputs(y=y)
ttnn.close_device(device)
