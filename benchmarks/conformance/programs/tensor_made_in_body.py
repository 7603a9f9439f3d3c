"""A tensor made inside the operation body (a constant table) and read by a thread (issue 7
item 10): ``bias = ttnn.from_torch(...)`` in the body, ``ttl.copy(bias[0, 0], blk)`` in the reader.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(1, 1))
def bias_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    bias = ttnn.from_torch(torch.full((32, 32), 0.75), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=1)
    b_dfb = ttl.make_dataflow_buffer_like(bias, shape=(1, 1), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.compute()
    def add():
        with x_dfb.wait() as x_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
            y_blk.store(x_blk + b_blk)

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as x_blk, b_dfb.reserve() as b_blk:
            ttl.copy(x[0, 0], x_blk).wait()
            ttl.copy(bias[0, 0], b_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0, 0]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((32, 32), seed=35, step=0.25)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
bias_kernel(x, y)
assert torch.equal(ttnn.to_torch(y).float(), x_host + 0.75)
save_outputs(y=y)
ttnn.close_device(device)
