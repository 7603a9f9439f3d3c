"""Elementwise, step 1: one node, one tile per block. y = relu(a - b) * c.

The smallest complete TT-Lang 1.1 program: ``@ttl.operation(grid=(1, 1))`` whose body
defines three threads (defining them is what registers them; nothing is returned), dataflow
buffers of one 32x32 tile with ``block_count=2`` so the reader can fill one block while compute
works on the other, and tile-coordinate indexing ``a[r, c]``. The host side uses the everyday
ttnn calls: open a device, ``from_torch`` into DRAM, ``to_torch`` back.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32


@ttl.operation(grid=(1, 1))
def relu_diff_scale(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    tile_rows = a.shape[0] // TILE
    tile_cols = a.shape[1] // TILE

    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def load():
        for r in range(tile_rows):
            for col in range(tile_cols):
                with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk, c_dfb.reserve() as c_blk:
                    # start all three transfers, then wait for them together
                    a_xf = ttl.copy(a[r, col], a_blk)
                    b_xf = ttl.copy(b[r, col], b_blk)
                    c_xf = ttl.copy(c[r, col], c_blk)
                    a_xf.wait()
                    b_xf.wait()
                    c_xf.wait()

    @ttl.compute()
    def math():
        for _ in range(tile_rows * tile_cols):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, c_dfb.wait() as c_blk:
                with y_dfb.reserve() as y_blk:
                    y_blk.store(ttl.math.relu(a_blk - b_blk) * c_blk)

    @ttl.datamovement()
    def store():
        for r in range(tile_rows):
            for col in range(tile_cols):
                with y_dfb.wait() as y_blk:
                    ttl.copy(y_blk, y[r, col]).wait()


def to_device(t, device):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


torch.manual_seed(10)
device = ttnn.open_device(device_id=0)
try:
    shape = (96, 128)
    a, b, c = (torch.randn(shape, dtype=torch.bfloat16) for _ in range(3))
    y = to_device(torch.zeros(shape, dtype=torch.bfloat16), device)
    relu_diff_scale(to_device(a, device), to_device(b, device), to_device(c, device), y)

    got = ttnn.to_torch(y).float()
    want = torch.relu(a.float() - b.float()) * c.float()
    assert torch.allclose(got, want, rtol=1e-2, atol=1e-2), (got - want).abs().max()
finally:
    ttnn.close_device(device)
print("elementwise_1_single_tile: OK")
