"""Explicit block release: ``blk = dfb.reserve()`` ... ``blk.push()``, ``blk = dfb.wait()`` ... ``blk.pop()``.

A 2x2-tile block per step, three-deep buffers, the block doubled.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

STEPS = 3


@ttl.operation(grid=(1, 1))
def scale_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(2, 2), block_count=3)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 2), block_count=3)

    @ttl.compute()
    def scale():
        for _ in range(STEPS):
            x_blk = x_dfb.wait()
            y_blk = y_dfb.reserve()
            y_blk.store(x_blk + x_blk)
            y_blk.push()
            x_blk.pop()

    @ttl.datamovement()
    def read():
        for i in range(STEPS):
            blk = x_dfb.reserve()
            tx = ttl.copy(x[2 * i:2 * i + 2, 0:2], blk)
            tx.wait()
            blk.push()

    @ttl.datamovement()
    def write():
        for i in range(STEPS):
            blk = y_dfb.wait()
            tx = ttl.copy(blk, y[2 * i:2 * i + 2, 0:2])
            tx.wait()
            blk.pop()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((STEPS * 64, 64), seed=3)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(STEPS * 64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
scale_kernel(x, y)
assert torch.equal(ttnn.to_torch(y).float(), x_host * 2)
save_outputs(y=y)
ttnn.close_device(device)
