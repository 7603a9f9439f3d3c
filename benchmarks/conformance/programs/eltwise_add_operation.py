"""The 1.1.6 operation spelling: ``@ttl.operation``, dataflow buffers, ``with`` acquisitions.

Three threads (compute, reader, writer) on one node add two bfloat16 tensors block by block.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

ROWS, COLS = 2, 3  # in tiles


@ttl.operation(grid=(1, 1))
def add_kernel(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def add():
        for _ in range(ROWS * COLS):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
                y_blk.store(a_blk + b_blk)

    @ttl.datamovement()
    def read():
        for r in range(ROWS):
            for c in range(COLS):
                with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                    ttl.copy(a[r, c], a_blk).wait()
                    ttl.copy(b[r, c], b_blk).wait()

    @ttl.datamovement()
    def write():
        for r in range(ROWS):
            for c in range(COLS):
                with y_dfb.wait() as y_blk:
                    ttl.copy(y_blk, y[r, c]).wait()


device = ttnn.open_device(device_id=0)
shape = (ROWS * 32, COLS * 32)
a_host = bf16_exact(shape, seed=1)
b_host = bf16_exact(shape, seed=2)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


a, b = to_device(a_host), to_device(b_host)
y = to_device(torch.zeros(shape))
add_kernel(a, b, y)
result = ttnn.to_torch(y).float()
assert torch.allclose(result, a_host + b_host, rtol=1e-2, atol=1e-2)
save_outputs(y=y)
ttnn.close_device(device)
