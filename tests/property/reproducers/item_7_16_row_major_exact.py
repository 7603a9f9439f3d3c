"""Issue 7 item 16: ``--exact`` and the default differ in the last bit on small row-major blocks.

sigmoid over 3 x 5-element row-major blocks of a float32 tensor. Expected: identical bits with
and without ``--exact``; today: some elements differ by one ulp (torch's fp32 kernels give
length-dependent last bits).
"""

import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def sigmoid_rows(x, y):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(3, 5), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(3, 5), block_count=2)

    @ttl.datamovement()
    def reader():
        for i in range(4):
            with x_dfb.reserve() as blk:
                ttl.copy(x[i * 3:(i + 1) * 3, 0:5], blk).wait()

    @ttl.compute()
    def compute():
        for _ in range(4):
            with x_dfb.wait() as xb, y_dfb.reserve() as yb:
                yb.store(ttl.math.sigmoid(xb) + ttl.math.exp2(xb) + ttl.math.sinh(xb) + ttl.math.cosh(xb))

    @ttl.datamovement()
    def writer():
        for i in range(4):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[i * 3:(i + 1) * 3, 0:5]).wait()


torch.manual_seed(0)
x = ttnn.from_torch(torch.randn(12, 5), dtype=ttnn.float32, layout=ttnn.ROW_MAJOR_LAYOUT)
y = ttnn.from_torch(torch.zeros(12, 5), dtype=ttnn.float32, layout=ttnn.ROW_MAJOR_LAYOUT)
sigmoid_rows(x, y)
