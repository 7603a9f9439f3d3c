"""3-D tensors: (batch, rows, cols) tile-layout tensors moved in (1, 2, 2)-tile blocks with
``x[b:b + 1, 0:2, 0:2]`` slices, ``ttl.math.exp(x) * w``.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

BATCH = 3


@ttl.operation(grid=(1, 1))
def batched_kernel(x: ttnn.Tensor, w: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 2, 2), block_count=2)
    w_dfb = ttl.make_dataflow_buffer_like(w, shape=(1, 2, 2), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2, 2), block_count=2)

    @ttl.compute()
    def scale_exp():
        for _ in range(BATCH):
            with x_dfb.wait() as x_blk, w_dfb.wait() as w_blk, y_dfb.reserve() as y_blk:
                y_blk.store(ttl.math.exp(x_blk) * w_blk)

    @ttl.datamovement()
    def read():
        for b in range(BATCH):
            with x_dfb.reserve() as x_blk, w_dfb.reserve() as w_blk:
                ttl.copy(x[b:b + 1, 0:2, 0:2], x_blk).wait()
                ttl.copy(w[b:b + 1, 0:2, 0:2], w_blk).wait()

    @ttl.datamovement()
    def write():
        for b in range(BATCH):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[b:b + 1, 0:2, 0:2]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((BATCH, 64, 64), seed=54)
w_host = bf16_exact((BATCH, 64, 64), seed=55)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


x, w, y = to_device(x_host), to_device(w_host), to_device(torch.zeros(BATCH, 64, 64))
batched_kernel(x, w, y)
assert torch.allclose(ttnn.to_torch(y).float(), torch.exp(x_host) * w_host, rtol=2e-2, atol=2e-2)
save_outputs(y=y)
ttnn.close_device(device)
