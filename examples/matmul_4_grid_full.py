"""Matmul, step 4: grid="full", uneven split with bounds checks. y = gelu(a @ b + c).

The program takes the whole compute grid, whatever its size: each node gets a ceiling share
of output block rows and columns, and the nodes past the end of the matrix skip their work,
with the same ``if`` guards in all three threads so that every buffer sees as many pushes as
pops. The epilogue is fused: after the last K step, compute stores ``gelu`` of the sum into the
output block in place (a store may read the block it writes).
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BM, BK, BN = 1, 2, 1


@ttl.operation(grid="full")
def matmul_bias_gelu(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    grid_n, grid_m = ttl.grid_size(dims=2)
    m_blocks = a.shape[0] // TILE // BM
    n_blocks = b.shape[1] // TILE // BN
    k_blocks = a.shape[1] // TILE // BK
    m_per_node = -(-m_blocks // grid_m)
    n_per_node = -(-n_blocks // grid_n)

    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(BK, BN), block_count=2)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=(BM, BN), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(BM, BN), block_count=2)

    @ttl.datamovement()
    def load():
        node_n, node_m = ttl.node(dims=2)
        for i in range(m_per_node):
            mb = node_m * m_per_node + i
            if mb < m_blocks:
                for j in range(n_per_node):
                    nb = node_n * n_per_node + j
                    if nb < n_blocks:
                        m0, n0 = mb * BM, nb * BN
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
        node_n, node_m = ttl.node(dims=2)
        for i in range(m_per_node):
            if node_m * m_per_node + i < m_blocks:
                for j in range(n_per_node):
                    if node_n * n_per_node + j < n_blocks:
                        with y_dfb.reserve() as y_blk:
                            with c_dfb.wait() as c_blk:
                                y_blk.store(c_blk)
                            for _ in range(k_blocks):
                                with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                                    y_blk += a_blk @ b_blk
                            y_blk.store(ttl.math.gelu(y_blk))

    @ttl.datamovement()
    def save():
        node_n, node_m = ttl.node(dims=2)
        for i in range(m_per_node):
            mb = node_m * m_per_node + i
            if mb < m_blocks:
                for j in range(n_per_node):
                    nb = node_n * n_per_node + j
                    if nb < n_blocks:
                        m0, n0 = mb * BM, nb * BN
                        with y_dfb.wait() as y_blk:
                            ttl.copy(y_blk, y[m0:m0 + BM, n0:n0 + BN]).wait()


def to_device(t, device):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


def pcc(x, y):
    return torch.corrcoef(torch.stack([x.flatten().float(), y.flatten().float()]))[0, 1].item()


torch.manual_seed(23)
device = ttnn.open_device(device_id=0)
try:
    M, K, N = 9 * BM * TILE, 2 * BK * TILE, 3 * BN * TILE  # 9 x 3 output blocks
    a = torch.randn(M, K, dtype=torch.bfloat16)
    b = torch.randn(K, N, dtype=torch.bfloat16)
    c = torch.randn(M, N, dtype=torch.bfloat16)
    y = to_device(torch.zeros(M, N, dtype=torch.bfloat16), device)
    matmul_bias_gelu(to_device(a, device), to_device(b, device), to_device(c, device), y)

    got = ttnn.to_torch(y).float()
    want = torch.nn.functional.gelu(a.float() @ b.float() + c.float(), approximate="tanh")
    assert pcc(got, want) >= 0.999, pcc(got, want)
    assert (got - want).abs().max() <= 2e-2 * want.abs().max()
finally:
    ttnn.close_device(device)
print("matmul_4_grid_full: OK")
