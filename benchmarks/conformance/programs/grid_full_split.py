"""``grid="full"`` (1.1.6) and ``grid="auto"`` (1.1.1) with ``--grid``, work split by the linear
node index, and the compiler options ``ttl.operation`` accepts (``fp32_dest_acc_en``,
``dst_full_sync_en``).

Seven tile columns over the nodes of a 2x2 grid, uneven shares (``start = i * n // nodes``),
``ttl.grid_size(dims=1)`` read in the operation body, ``ttl.node(dims=1)`` in a helper every
thread calls (the published simulator knows the node only inside threads), a fused
``a * b + a`` per tile.

Grid: 2,2
Variants: full auto
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

TILES = 7


@ttl.operation(grid=sys.argv[1], fp32_dest_acc_en=True, dst_full_sync_en=False)
def split_kernel(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    nodes = ttl.grid_size(dims=1)

    def share():
        me = ttl.node(dims=1)
        return me * TILES // nodes, (me + 1) * TILES // nodes
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def fused():
        start, stop = share()
        for _ in range(start, stop):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
                y_blk.store(a_blk * b_blk + a_blk)

    @ttl.datamovement()
    def read():
        start, stop = share()
        for t in range(start, stop):
            with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                ttl.copy(a[0, t], a_blk).wait()
                ttl.copy(b[0, t], b_blk).wait()

    @ttl.datamovement()
    def write():
        start, stop = share()
        for t in range(start, stop):
            with y_dfb.wait() as y_blk:
                ttl.copy(y_blk, y[0, t]).wait()


device = ttnn.open_device(device_id=0)
a_host = bf16_exact((32, 32 * TILES), seed=23)
b_host = bf16_exact((32, 32 * TILES), seed=24)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


a, b, y = to_device(a_host), to_device(b_host), to_device(torch.zeros(32, 32 * TILES))
split_kernel(a, b, y)
assert torch.allclose(ttnn.to_torch(y).float(), a_host * b_host + a_host, rtol=1e-2, atol=1e-2)
save_outputs(y=y)
ttnn.close_device(device)
