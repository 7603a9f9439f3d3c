"""Blocks acquired without ``with`` and never released by name: in 1.1.6 a second ``reserve()``
on a buffer pushes the previous block, a second ``wait()`` pops it, and a thread's last blocks
are released when it returns (the compiler's insert-push/pop rule).
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

TILES = 3


@ttl.operation(grid=(1, 1))
def release_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def cube():
        for _ in range(TILES):
            x_blk = x_dfb.wait()
            y_blk = y_dfb.reserve()
            y_blk.store(x_blk * x_blk * x_blk)

    @ttl.datamovement()
    def read():
        for t in range(TILES):
            blk = x_dfb.reserve()
            tx = ttl.copy(x[0, t], blk)
            tx.wait()

    @ttl.datamovement()
    def write():
        for t in range(TILES):
            blk = y_dfb.wait()
            tx = ttl.copy(blk, y[0, t])
            tx.wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((32, 32 * TILES), seed=39, step=0.25)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 32 * TILES), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
release_kernel(x, y)
assert torch.allclose(ttnn.to_torch(y).float(), x_host ** 3, rtol=1e-2, atol=1e-2)
save_outputs(y=y)
ttnn.close_device(device)
