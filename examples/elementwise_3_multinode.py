"""Elementwise, step 3: a fixed 2x2 grid of nodes, each owning a region. y = relu(a - b) * c.

``ttl.node(dims=2)`` gives a thread its (column, row) in the grid; node (x, y) takes the
``blocks_per_node`` block rows and columns starting at (y * rows_per_node, x * cols_per_node).
All three threads compute the same ranges, so reader, compute and writer agree on how many
blocks flow through each buffer. The tensor divides evenly over the grid here (step 4 drops
that assumption).
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BLOCK = (2, 2)


@ttl.operation(grid=(2, 2))
def relu_diff_scale(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    br, bc = BLOCK
    grid_cols, grid_rows = ttl.grid_size(dims=2)
    rows_per_node = a.shape[0] // TILE // br // grid_rows
    cols_per_node = a.shape[1] // TILE // bc // grid_cols

    a_dfb = ttl.make_dataflow_buffer_like(a, shape=BLOCK, block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=BLOCK, block_count=2)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=BLOCK, block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=BLOCK, block_count=2)

    @ttl.datamovement()
    def load():
        nx, ny = ttl.node(dims=2)
        for i in range(rows_per_node):
            for j in range(cols_per_node):
                r0 = (ny * rows_per_node + i) * br
                c0 = (nx * cols_per_node + j) * bc
                with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk, c_dfb.reserve() as c_blk:
                    a_xf = ttl.copy(a[r0:r0 + br, c0:c0 + bc], a_blk)
                    b_xf = ttl.copy(b[r0:r0 + br, c0:c0 + bc], b_blk)
                    c_xf = ttl.copy(c[r0:r0 + br, c0:c0 + bc], c_blk)
                    a_xf.wait()
                    b_xf.wait()
                    c_xf.wait()

    @ttl.compute()
    def math():
        for _ in range(rows_per_node * cols_per_node):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, c_dfb.wait() as c_blk:
                with y_dfb.reserve() as y_blk:
                    y_blk.store(ttl.math.relu(a_blk - b_blk) * c_blk)

    @ttl.datamovement()
    def store():
        nx, ny = ttl.node(dims=2)
        for i in range(rows_per_node):
            for j in range(cols_per_node):
                r0 = (ny * rows_per_node + i) * br
                c0 = (nx * cols_per_node + j) * bc
                with y_dfb.wait() as y_blk:
                    xf = ttl.copy(y_blk, y[r0:r0 + br, c0:c0 + bc])
                    xf.wait()


def to_device(t, device):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


torch.manual_seed(12)
device = ttnn.open_device(device_id=0)
try:
    shape = (2 * 2 * BLOCK[0] * TILE, 2 * 2 * BLOCK[1] * TILE)  # 2 blocks per node each way
    a, b, c = (torch.randn(shape, dtype=torch.bfloat16) for _ in range(3))
    y = to_device(torch.zeros(shape, dtype=torch.bfloat16), device)
    relu_diff_scale(to_device(a, device), to_device(b, device), to_device(c, device), y)

    got = ttnn.to_torch(y).float()
    want = torch.relu(a.float() - b.float()) * c.float()
    assert torch.allclose(got, want, rtol=1e-2, atol=1e-2), (got - want).abs().max()
finally:
    ttnn.close_device(device)
print("elementwise_3_multinode: OK")
