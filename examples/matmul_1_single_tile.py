"""Matmul, step 1: one node, one-tile blocks. y = a @ b + c.

For each output tile the compute thread keeps a running sum in its own dataflow buffer: it
starts from the tile of ``c``, and every K step waits for the previous partial sum, reserves a
fresh block and stores ``partial + a_blk @ b_blk`` into it. Storing into a new block each step
(rather than updating one in place) is the pattern that works with any ``block_count``; the
reader streams the K tiles of row m of ``a`` and column n of ``b`` in the same order.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32


@ttl.operation(grid=(1, 1))
def matmul_bias(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    m_tiles = a.shape[0] // TILE
    k_tiles = a.shape[1] // TILE
    n_tiles = b.shape[1] // TILE

    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=(1, 1), block_count=2)
    sum_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def load():
        for m in range(m_tiles):
            for n in range(n_tiles):
                with c_dfb.reserve() as c_blk:
                    ttl.copy(c[m, n], c_blk).wait()
                for k in range(k_tiles):
                    with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                        a_xf = ttl.copy(a[m, k], a_blk)
                        b_xf = ttl.copy(b[k, n], b_blk)
                        a_xf.wait()
                        b_xf.wait()

    @ttl.compute()
    def mac():
        for _ in range(m_tiles * n_tiles):
            with c_dfb.wait() as c_blk, sum_dfb.reserve() as first:
                first.store(c_blk)
            for _ in range(k_tiles):
                with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, sum_dfb.wait() as partial:
                    with sum_dfb.reserve() as nxt:
                        nxt.store(partial + a_blk @ b_blk)
            with sum_dfb.wait() as total, y_dfb.reserve() as y_blk:
                y_blk.store(total)

    @ttl.datamovement()
    def save():
        for m in range(m_tiles):
            for n in range(n_tiles):
                with y_dfb.wait() as y_blk:
                    ttl.copy(y_blk, y[m, n]).wait()


def to_device(t, device):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


def pcc(x, y):
    return torch.corrcoef(torch.stack([x.flatten().float(), y.flatten().float()]))[0, 1].item()


torch.manual_seed(20)
device = ttnn.open_device(device_id=0)
try:
    M, K, N = 64, 96, 64
    a = torch.randn(M, K, dtype=torch.bfloat16)
    b = torch.randn(K, N, dtype=torch.bfloat16)
    c = torch.randn(M, N, dtype=torch.bfloat16)
    y = to_device(torch.zeros(M, N, dtype=torch.bfloat16), device)
    matmul_bias(to_device(a, device), to_device(b, device), to_device(c, device), y)

    got = ttnn.to_torch(y).float()
    want = a.float() @ b.float() + c.float()
    # every partial sum is rounded to bfloat16 (the buffer's format): compare by correlation
    assert pcc(got, want) >= 0.999, pcc(got, want)
    assert (got - want).abs().max() <= 2e-2 * want.abs().max()
finally:
    ttnn.close_device(device)
print("matmul_1_single_tile: OK")
