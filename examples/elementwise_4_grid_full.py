"""Elementwise, step 4: grid="full", any grid size, uneven split. y = relu(a - b) * c.

With ``grid="full"`` the program gets the whole compute grid (8x8 on wormhole_b0, or what
``tilecraft run --grid C,R`` says) and must not assume its size. Each node takes a ceiling
share of block rows and columns (``-(-n // d)``); nodes at the trailing edge get fewer or none,
so every thread guards its work with ``if row < block_rows`` / ``if col < block_cols``. The
tensor is only 5 x 3 blocks, so on the default 8x8 grid most nodes find no work at all.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BLOCK = (1, 2)


@ttl.operation(grid="full")
def relu_diff_scale(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    br, bc = BLOCK
    grid_cols, grid_rows = ttl.grid_size(dims=2)
    block_rows = a.shape[0] // TILE // br
    block_cols = a.shape[1] // TILE // bc
    rows_per_node = -(-block_rows // grid_rows)
    cols_per_node = -(-block_cols // grid_cols)

    a_dfb = ttl.make_dataflow_buffer_like(a, shape=BLOCK, block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=BLOCK, block_count=2)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=BLOCK, block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=BLOCK, block_count=2)

    @ttl.datamovement()
    def load():
        nx, ny = ttl.node(dims=2)
        for i in range(rows_per_node):
            row = ny * rows_per_node + i
            if row < block_rows:
                for j in range(cols_per_node):
                    col = nx * cols_per_node + j
                    if col < block_cols:
                        r0, c0 = row * br, col * bc
                        with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk, c_dfb.reserve() as c_blk:
                            a_xf = ttl.copy(a[r0:r0 + br, c0:c0 + bc], a_blk)
                            b_xf = ttl.copy(b[r0:r0 + br, c0:c0 + bc], b_blk)
                            c_xf = ttl.copy(c[r0:r0 + br, c0:c0 + bc], c_blk)
                            a_xf.wait()
                            b_xf.wait()
                            c_xf.wait()

    @ttl.compute()
    def math():
        nx, ny = ttl.node(dims=2)
        for i in range(rows_per_node):
            if ny * rows_per_node + i < block_rows:
                for j in range(cols_per_node):
                    if nx * cols_per_node + j < block_cols:
                        with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, c_dfb.wait() as c_blk:
                            with y_dfb.reserve() as y_blk:
                                y_blk.store(ttl.math.relu(a_blk - b_blk) * c_blk)

    @ttl.datamovement()
    def store():
        nx, ny = ttl.node(dims=2)
        for i in range(rows_per_node):
            row = ny * rows_per_node + i
            if row < block_rows:
                for j in range(cols_per_node):
                    col = nx * cols_per_node + j
                    if col < block_cols:
                        r0, c0 = row * br, col * bc
                        with y_dfb.wait() as y_blk:
                            xf = ttl.copy(y_blk, y[r0:r0 + br, c0:c0 + bc])
                            xf.wait()


def to_device(t, device):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


torch.manual_seed(13)
device = ttnn.open_device(device_id=0)
try:
    shape = (5 * BLOCK[0] * TILE, 3 * BLOCK[1] * TILE)
    a, b, c = (torch.randn(shape, dtype=torch.bfloat16) for _ in range(3))
    y = to_device(torch.zeros(shape, dtype=torch.bfloat16), device)
    relu_diff_scale(to_device(a, device), to_device(b, device), to_device(c, device), y)

    got = ttnn.to_torch(y).float()
    want = torch.relu(a.float() - b.float()) * c.float()
    assert torch.allclose(got, want, rtol=1e-2, atol=1e-2), (got - want).abs().max()
finally:
    ttnn.close_device(device)
print("elementwise_4_grid_full: OK")
