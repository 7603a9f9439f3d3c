"""``ttl.signpost``: as a statement and as a ``with`` block around a region (1.1.6 returns a
context manager); it changes no values.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(1, 1))
def signpost_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def exp():
        ttl.signpost("compute start")
        with ttl.signpost("exp region"):
            with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                y_blk.store(ttl.math.exp(x_blk))

    @ttl.datamovement()
    def read():
        with ttl.signpost("read"):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, 0], blk).wait()

    @ttl.datamovement()
    def write():
        ttl.signpost("write")
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((32, 32), seed=41)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
signpost_kernel(x, y)
assert torch.allclose(ttnn.to_torch(y).float(), torch.exp(x_host), rtol=1e-2)
save_outputs(y=y)
ttnn.close_device(device)
