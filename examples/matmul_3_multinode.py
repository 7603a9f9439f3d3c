"""Matmul, step 3: a fixed 2x2 grid; each node owns a rectangle of output blocks. y = a @ b + c.

Node (x, y) of ``ttl.node(dims=2)`` computes the output blocks of block rows
``y * m_per_node ...`` and block columns ``x * n_per_node ...``; every node streams the whole
K extent for each of its blocks (``a`` rows and ``b`` columns are read by several nodes; no
sharing between nodes yet). The reader and the compute thread agree on the loop order: for
each output block, its ``c`` block first, then the K blocks.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BM, BK, BN = 1, 2, 2


@ttl.operation(grid=(2, 2))
def matmul_bias(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    grid_n, grid_m = ttl.grid_size(dims=2)
    m_per_node = a.shape[0] // TILE // BM // grid_m
    n_per_node = b.shape[1] // TILE // BN // grid_n
    k_blocks = a.shape[1] // TILE // BK

    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(BK, BN), block_count=2)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=(BM, BN), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(BM, BN), block_count=2)

    @ttl.datamovement()
    def load():
        node_n, node_m = ttl.node(dims=2)
        for i in range(m_per_node):
            m0 = (node_m * m_per_node + i) * BM
            for j in range(n_per_node):
                n0 = (node_n * n_per_node + j) * BN
                with c_dfb.reserve() as c_blk:
                    ttl.copy(c[m0:m0 + BM, n0:n0 + BN], c_blk).wait()
                for kb in range(k_blocks):
                    k0 = kb * BK
                    with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                        a_xf = ttl.copy(a[m0:m0 + BM, k0:k0 + BK], a_blk)
                        b_xf = ttl.copy(b[k0:k0 + BK, n0:n0 + BN], b_blk)
                        a_xf.wait()
                        b_xf.wait()

    @ttl.compute()
    def mac():
        for _ in range(m_per_node * n_per_node):
            with y_dfb.reserve() as y_blk:
                with c_dfb.wait() as c_blk:
                    y_blk.store(c_blk)
                for _ in range(k_blocks):
                    with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                        y_blk += a_blk @ b_blk

    @ttl.datamovement()
    def save():
        node_n, node_m = ttl.node(dims=2)
        for i in range(m_per_node):
            m0 = (node_m * m_per_node + i) * BM
            for j in range(n_per_node):
                n0 = (node_n * n_per_node + j) * BN
                with y_dfb.wait() as y_blk:
                    ttl.copy(y_blk, y[m0:m0 + BM, n0:n0 + BN]).wait()


def to_device(t, device):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


def pcc(x, y):
    return torch.corrcoef(torch.stack([x.flatten().float(), y.flatten().float()]))[0, 1].item()


torch.manual_seed(22)
device = ttnn.open_device(device_id=0)
try:
    M, K, N = 2 * 2 * BM * TILE, 2 * BK * TILE, 2 * BN * TILE  # 2 block rows per node, 1 column
    a = torch.randn(M, K, dtype=torch.bfloat16)
    b = torch.randn(K, N, dtype=torch.bfloat16)
    c = torch.randn(M, N, dtype=torch.bfloat16)
    y = to_device(torch.zeros(M, N, dtype=torch.bfloat16), device)
    matmul_bias(to_device(a, device), to_device(b, device), to_device(c, device), y)

    got = ttnn.to_torch(y).float()
    want = a.float() @ b.float() + c.float()
    assert pcc(got, want) >= 0.999, pcc(got, want)
    assert (got - want).abs().max() <= 2e-2 * want.abs().max()
finally:
    ttnn.close_device(device)
print("matmul_3_multinode: OK")
