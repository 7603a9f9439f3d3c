"""Transcendental functions on small row-major blocks: the batched mode and --exact give the same
bits (each value is evaluated in float64 and rounded once, whatever the batch length)."""
import torch

import ttl
import ttnn

ROWS, COLS = 6, 5


@ttl.operation(grid=(1, 1))
def smooth(a, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, COLS), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, COLS), block_count=2)

    @ttl.compute()
    def compute():
        for _ in range(ROWS):
            with a_dfb.wait() as x, y_dfb.reserve() as out:
                out.store(ttl.math.sigmoid(x) + ttl.math.exp2(x) + ttl.math.sinh(x) + ttl.math.cosh(x))

    @ttl.datamovement()
    def reader():
        for r in range(ROWS):
            with a_dfb.reserve() as blk:
                ttl.copy(a[r:r + 1, 0:COLS], blk).wait()

    @ttl.datamovement()
    def writer():
        for r in range(ROWS):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[r:r + 1, 0:COLS]).wait()


torch.manual_seed(3)
x = torch.randn(ROWS, COLS)
a = ttnn.from_torch(x, dtype=ttnn.float32, layout=ttnn.ROW_MAJOR_LAYOUT)
y = ttnn.from_torch(torch.zeros(ROWS, COLS), dtype=ttnn.float32, layout=ttnn.ROW_MAJOR_LAYOUT)
smooth(a, y)
want = torch.sigmoid(x) + torch.exp2(x) + torch.sinh(x) + torch.cosh(x)
assert torch.allclose(ttnn.to_torch(y), want, rtol=1e-6, atol=1e-6)
