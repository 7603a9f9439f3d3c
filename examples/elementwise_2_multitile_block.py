"""Elementwise, step 2: one node, blocks of several tiles. y = relu(a - b) * c.

Same operation as step 1, but each block is a (2 x 4)-tile window, so one ``ttl.copy`` moves
eight tiles (``a[r0:r0 + 2, c0:c0 + 4]``) and one ``store`` computes them all: fewer, larger
transfers and fewer buffer handshakes per element. The block shape is the only thing that
changes in the buffers; the loops now count blocks instead of tiles.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BLOCK = (2, 4)  # tiles per block: rows, columns


@ttl.operation(grid=(1, 1))
def relu_diff_scale(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    br, bc = BLOCK
    block_rows = a.shape[0] // TILE // br
    block_cols = a.shape[1] // TILE // bc

    a_dfb = ttl.make_dataflow_buffer_like(a, shape=BLOCK, block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=BLOCK, block_count=2)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=BLOCK, block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=BLOCK, block_count=2)

    @ttl.datamovement()
    def load():
        for i in range(block_rows):
            for j in range(block_cols):
                r0, c0 = i * br, j * bc
                with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk, c_dfb.reserve() as c_blk:
                    a_xf = ttl.copy(a[r0:r0 + br, c0:c0 + bc], a_blk)
                    b_xf = ttl.copy(b[r0:r0 + br, c0:c0 + bc], b_blk)
                    c_xf = ttl.copy(c[r0:r0 + br, c0:c0 + bc], c_blk)
                    a_xf.wait()
                    b_xf.wait()
                    c_xf.wait()

    @ttl.compute()
    def math():
        for _ in range(block_rows * block_cols):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, c_dfb.wait() as c_blk:
                with y_dfb.reserve() as y_blk:
                    y_blk.store(ttl.math.relu(a_blk - b_blk) * c_blk)

    @ttl.datamovement()
    def store():
        for i in range(block_rows):
            for j in range(block_cols):
                r0, c0 = i * br, j * bc
                with y_dfb.wait() as y_blk:
                    xf = ttl.copy(y_blk, y[r0:r0 + br, c0:c0 + bc])
                    xf.wait()


def to_device(t, device):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


torch.manual_seed(11)
device = ttnn.open_device(device_id=0)
try:
    shape = (2 * BLOCK[0] * TILE, 2 * BLOCK[1] * TILE)
    a, b, c = (torch.randn(shape, dtype=torch.bfloat16) for _ in range(3))
    y = to_device(torch.zeros(shape, dtype=torch.bfloat16), device)
    relu_diff_scale(to_device(a, device), to_device(b, device), to_device(c, device), y)

    got = ttnn.to_torch(y).float()
    want = torch.relu(a.float() - b.float()) * c.float()
    assert torch.allclose(got, want, rtol=1e-2, atol=1e-2), (got - want).abs().max()
finally:
    ttnn.close_device(device)
print("elementwise_2_multitile_block: OK")
