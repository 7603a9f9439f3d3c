"""Matmul that reads each block of ``a`` once per grid row and multicasts it (TT-Lang 1.1).

In the plain multi-node matmul every node of a grid row fetches the same ``a`` blocks from
DRAM. Here node (0, r) alone reads them and sends each over a multicast pipe to the whole row,
itself included: ``ttl.Pipe(src=(0, r), dst=(slice(0, grid_n), r))`` grouped in a
``ttl.PipeNet``, whose ``if_src`` / ``if_dst`` run the helper for the pipes this node sends
on / receives from. Every node reads its own ``b`` column blocks and accumulates y = a @ b with
``+=``. Blocks are released with the 1.1 spelling ``blk.push()`` / ``blk.pop()`` instead of
``with``.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BM, BK, BN = 1, 2, 2


@ttl.operation(grid=(3, 2))
def matmul(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    grid_n, grid_m = ttl.grid_size(dims=2)
    k_blocks = a.shape[1] // TILE // BK
    row_net = ttl.PipeNet([ttl.Pipe(src=(0, r), dst=(slice(0, grid_n), r)) for r in range(grid_m)])

    fetch_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)  # node (0, r) only
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(BK, BN), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(BM, BN), block_count=1)

    @ttl.datamovement()
    def load():
        nx, ny = ttl.node(dims=2)
        m0, n0 = ny * BM, nx * BN
        for kb in range(k_blocks):
            k0 = kb * BK

            def send(pipe):
                blk = fetch_dfb.reserve()
                ttl.copy(a[m0:m0 + BM, k0:k0 + BK], blk).wait()
                blk.push()
                blk = fetch_dfb.wait()
                ttl.copy(blk, pipe).wait()
                blk.pop()

            def receive(pipe):
                blk = a_dfb.reserve()
                ttl.copy(pipe, blk).wait()
                blk.push()

            row_net.if_src(send)
            row_net.if_dst(receive)

            b_blk = b_dfb.reserve()
            ttl.copy(b[k0:k0 + BK, n0:n0 + BN], b_blk).wait()
            b_blk.push()

    @ttl.compute()
    def mac():
        y_blk = y_dfb.reserve()
        y_blk.store(ttl.block.fill(0.0, shape=y_blk.shape))
        for _ in range(k_blocks):
            a_blk = a_dfb.wait()
            b_blk = b_dfb.wait()
            y_blk += a_blk @ b_blk
            a_blk.pop()
            b_blk.pop()
        y_blk.push()

    @ttl.datamovement()
    def save():
        nx, ny = ttl.node(dims=2)
        y_blk = y_dfb.wait()
        ttl.copy(y_blk, y[ny * BM:(ny + 1) * BM, nx * BN:(nx + 1) * BN]).wait()
        y_blk.pop()


torch.manual_seed(24)
M, K, N = 2 * BM * TILE, 3 * BK * TILE, 3 * BN * TILE
a_host = torch.randn(M, K)
b_host = torch.randn(K, N)
a = ttnn.from_torch(a_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(b_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((M, N), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)

matmul(a, b, y)

got = ttnn.to_torch(y)
want = a_host @ b_host
# the device multiplies float32 operands as TF32 and sums products in groups of limited precision
# (docs/numerics.md section 8): at --level cpp the error is about 2^-9.4 of the largest value here
assert (got - want).abs().max() <= 2 ** -8 * want.abs().max(), (got - want).abs().max()
print("matmul_row_multicast: OK")
