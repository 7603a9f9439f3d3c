"""A multi-core matmul in the seed spelling, accumulating over K with ``+=``.

Each core of the 2x2 grid owns one (BM x BN)-tile block of y = a @ b. Its compute thread
reserves that output block once, zeroes it, and adds one K-slice product per step with
``y_blk += a_blk @ b_blk`` while the reader streams the matching slices of ``a`` (BM x BK
tiles) and ``b`` (BK x BN tiles). The inputs are bfloat16 and the output is float32, so every
partial sum is held in fp32 (``+=`` rounds on each store to the block's format).
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

BM, BN, BK = 2, 2, 2  # block sizes in tiles


@ttl.kernel(grid=(2, 2))
def matmul(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor) -> None:
    k_steps = a.shape[1] // ttl.TILE_SHAPE[1] // BK
    col, row = ttl.core()  # this core computes output block (row, col)

    a_cb = ttl.make_circular_buffer_like(a, shape=(BM, BK), buffer_factor=2)
    b_cb = ttl.make_circular_buffer_like(b, shape=(BK, BN), buffer_factor=2)
    y_cb = ttl.make_circular_buffer_like(y, shape=(BM, BN), buffer_factor=1)

    @ttl.datamovement()
    def read():
        for k in range(k_steps):
            with a_cb.reserve() as a_blk, b_cb.reserve() as b_blk:
                a_xf = ttl.copy(a[(row * BM):((row + 1) * BM), (k * BK):((k + 1) * BK)], a_blk)
                b_xf = ttl.copy(b[(k * BK):((k + 1) * BK), (col * BN):((col + 1) * BN)], b_blk)
                a_xf.wait()
                b_xf.wait()

    @ttl.compute()
    def compute():
        with y_cb.reserve() as y_blk:
            y_blk.store(ttl.block.fill(0.0, shape=y_blk.shape))
            for _ in range(k_steps):
                with a_cb.wait() as a_blk, b_cb.wait() as b_blk:
                    y_blk += a_blk @ b_blk

    @ttl.datamovement()
    def write():
        with y_cb.wait() as y_blk:
            xf = ttl.copy(y_blk, y[(row * BM):((row + 1) * BM), (col * BN):((col + 1) * BN)])
            xf.wait()

    return ttl.Program(compute, read, write)(a, b, y)


torch.manual_seed(7)
M, K, N = 2 * BM * 32, 4 * BK * 32, 2 * BN * 32
a_host = torch.randn(M, K, dtype=torch.bfloat16)
b_host = torch.randn(K, N, dtype=torch.bfloat16)

a = ttnn.from_torch(a_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(b_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((M, N), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)

matmul(a, b, y)

got = ttnn.to_torch(y)
want = a_host.float() @ b_host.float()
# the matrix unit aligns products in groups of eight (about 12 significant bits, docs/numerics.md),
# so a sum is good to about 2^-10 of its largest term, not to fp32
assert (got - want).abs().max() <= 2 ** -10 * want.abs().max(), (got - want).abs().max()
print("matmul_multicore_accumulate: OK")
