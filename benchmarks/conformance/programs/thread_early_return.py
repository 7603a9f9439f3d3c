"""``return`` before the end of a thread: nodes with no work leave at once
(``if col >= WORKERS: return``), the 1.1.6 examples' way of idling part of a grid.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

WORKERS = 2


@ttl.operation(grid=(3, 1))
def some_nodes(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def double():
        col, _ = ttl.node(dims=2)
        if col >= WORKERS:
            return
        with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            y_blk.store(x_blk + x_blk)

    @ttl.datamovement()
    def read():
        col, _ = ttl.node(dims=2)
        if col >= WORKERS:
            return
        with x_dfb.reserve() as blk:
            ttl.copy(x[0, col], blk).wait()

    @ttl.datamovement()
    def write():
        col, _ = ttl.node(dims=2)
        if col >= WORKERS:
            return
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, col]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((32, 96), seed=59, step=0.25)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 96), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
some_nodes(x, y)
assert torch.equal(ttnn.to_torch(y).float(), torch.cat([2 * x_host[:, :64], torch.zeros(32, 32)], dim=1))
save_outputs(y=y)
ttnn.close_device(device)
