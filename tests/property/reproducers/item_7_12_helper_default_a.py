"""Issue 7 item 12 (with item_7_12_helper_default_b.py): two scripts that differ only in
a helper's default. Run in one process, the second gives the first one's answer, because thread
and helper source is cached by code object and Python compares code objects equal across files
and default values. Expected: this script prints 2.0.
"""

import torch

import ttl
import ttnn


def scaled(v, k=2.0):
    return v * k


@ttl.operation(grid=(1, 1))
def kern(x, y):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0, 0], blk).wait()

    @ttl.compute()
    def compute():
        with x_dfb.wait() as xb, y_dfb.reserve() as yb:
            yb.store(scaled(xb))

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


x = ttnn.from_torch(torch.ones(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(x, y)
print(ttnn.to_torch(y)[0, 0].item())
