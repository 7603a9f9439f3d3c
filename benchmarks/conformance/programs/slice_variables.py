"""``slice()`` objects held in variables inside threads (issue 7 item 7).

The reader builds ``rows = slice(r, r + 2)`` and ``cols = slice(0, 2)`` and copies
``x[rows, cols]``; the writer indexes with a tuple of slices held in one variable.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

STEPS = 2


@ttl.operation(grid=(1, 1))
def slice_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(2, 2), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 2), block_count=2)

    @ttl.compute()
    def double():
        for _ in range(STEPS):
            with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                y_blk.store(x_blk + x_blk)

    @ttl.datamovement()
    def read():
        cols = slice(0, 2)
        for step in range(STEPS):
            rows = slice(2 * step, 2 * step + 2)
            with x_dfb.reserve() as blk:
                ttl.copy(x[rows, cols], blk).wait()

    @ttl.datamovement()
    def write():
        for step in range(STEPS):
            window = (slice(2 * step, 2 * step + 2), slice(0, 2))
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[window]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((32 * 2 * STEPS, 64), seed=29)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(x_host.shape), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
slice_kernel(x, y)
assert torch.equal(ttnn.to_torch(y).float(), x_host * 2)
save_outputs(y=y)
ttnn.close_device(device)
