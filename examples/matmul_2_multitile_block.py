"""Matmul, step 2: one node, multi-tile blocks, accumulation with ``+=``. y = a @ b + c.

Blocks are now (BM x BK) tiles of ``a``, (BK x BN) of ``b`` and (BM x BN) of the output, so
one ``a_blk @ b_blk`` is a whole block product (summed over its BK tiles of K). Instead of
passing partial sums through a buffer as step 1 does, compute reserves the output block once,
seeds it with the ``c`` block and adds each K step in place: ``y_blk += a_blk @ b_blk``. The
block is pushed to the writer only when the ``with`` ends, after the last K step.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BM, BK, BN = 2, 2, 2


@ttl.operation(grid=(1, 1))
def matmul_bias(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    m_blocks = a.shape[0] // TILE // BM
    k_blocks = a.shape[1] // TILE // BK
    n_blocks = b.shape[1] // TILE // BN

    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(BK, BN), block_count=2)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=(BM, BN), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(BM, BN), block_count=2)

    @ttl.datamovement()
    def load():
        for mb in range(m_blocks):
            m0 = mb * BM
            for nb in range(n_blocks):
                n0 = nb * BN
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
        for _ in range(m_blocks * n_blocks):
            with y_dfb.reserve() as y_blk:
                with c_dfb.wait() as c_blk:
                    y_blk.store(c_blk)
                for _ in range(k_blocks):
                    with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                        y_blk += a_blk @ b_blk

    @ttl.datamovement()
    def save():
        for mb in range(m_blocks):
            m0 = mb * BM
            for nb in range(n_blocks):
                n0 = nb * BN
                with y_dfb.wait() as y_blk:
                    ttl.copy(y_blk, y[m0:m0 + BM, n0:n0 + BN]).wait()


def to_device(t, device):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


def pcc(x, y):
    return torch.corrcoef(torch.stack([x.flatten().float(), y.flatten().float()]))[0, 1].item()


torch.manual_seed(21)
device = ttnn.open_device(device_id=0)
try:
    M, K, N = 2 * BM * TILE, 3 * BK * TILE, 2 * BN * TILE
    a = torch.randn(M, K, dtype=torch.bfloat16)
    b = torch.randn(K, N, dtype=torch.bfloat16)
    c = torch.randn(M, N, dtype=torch.bfloat16)
    y = to_device(torch.zeros(M, N, dtype=torch.bfloat16), device)
    matmul_bias(to_device(a, device), to_device(b, device), to_device(c, device), y)

    got = ttnn.to_torch(y).float()
    want = a.float() @ b.float() + c.float()
    # `+=` rounds every partial sum to bfloat16 (the block's format): compare by correlation
    assert pcc(got, want) >= 0.999, pcc(got, want)
    assert (got - want).abs().max() <= 2e-2 * want.abs().max()
finally:
    ttnn.close_device(device)
print("matmul_2_multitile_block: OK")
