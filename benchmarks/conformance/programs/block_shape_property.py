"""``blk.shape`` and ``dfb.shape`` in threads: an accumulator made with
``ttl.block.fill(0, shape=acc_blk.shape)`` and loop bounds from a buffer's shape.

The compute thread sums four (2, 2)-tile blocks of ``x`` through an accumulator buffer (the
tutorials' pattern: wait the previous partial sum, reserve the next).
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

STEPS = 4


@ttl.operation(grid=(1, 1))
def sum_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(2, 2), block_count=2)
    acc_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 2), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 2), block_count=1)

    @ttl.compute()
    def accumulate():
        with acc_dfb.reserve() as acc_blk:
            acc_blk.store(ttl.block.fill(0, shape=acc_blk.shape))
        for _ in range(STEPS):
            with x_dfb.wait() as x_blk, acc_dfb.wait() as pre_blk:
                with acc_dfb.reserve() as acc_blk:
                    acc_blk.store(pre_blk + x_blk)
        with acc_dfb.wait() as acc_blk, y_dfb.reserve() as y_blk:
            y_blk.store(acc_blk)

    @ttl.datamovement()
    def read():
        rows, cols = x_dfb.shape
        for step in range(STEPS):
            with x_dfb.reserve() as blk:
                ttl.copy(x[step * rows:(step + 1) * rows, 0:cols], blk).wait()

    @ttl.datamovement()
    def write():
        rows, cols = y_dfb.shape
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:rows, 0:cols]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((64 * STEPS, 64), seed=51, step=0.25)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
sum_kernel(x, y)
assert torch.equal(ttnn.to_torch(y).float(), x_host.reshape(STEPS, 64, 64).sum(0))
save_outputs(y=y)
ttnn.close_device(device)
