"""A ``ttl.copy(...)`` whose handle is never kept: the published simulator waits for it at once.

The reader and the writer issue their copies as bare statements, without ``.wait()``.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(1, 1))
def copy_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 2), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2), block_count=2)

    @ttl.compute()
    def square():
        with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            y_blk.store(x_blk * x_blk)

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0:1, 0:2], blk)

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:1, 0:2])


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((32, 64), seed=36, step=0.25)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
copy_kernel(x, y)
assert torch.equal(ttnn.to_torch(y).float(), x_host * x_host)
save_outputs(y=y)
ttnn.close_device(device)
