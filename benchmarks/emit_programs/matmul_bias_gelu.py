"""y = gelu(a @ b + bias), bias one row broadcast down, bfloat16 in and out, written as a user would
(a local accumulator over the K loop, the epilogue one expression): the TT-Lang side of
benchmarks/emit_vs_hand.py's matmul with an epilogue (hand-written:
tilecraft/metal/reference_kernels/matmul_bias_gelu). 256 x 512 x 256 on a 4x4 grid, one 2x2-tile
output block per core, K in blocks of 2 tiles.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

BM, BN, BK = 2, 2, 2  # output block rows and columns, K block, in tiles


@ttl.operation(grid=(4, 4))
def matmul_bias_gelu(a: ttnn.Tensor, b: ttnn.Tensor, bias: ttnn.Tensor, y: ttnn.Tensor) -> None:
    n_blocks = b.shape[1] // 32 // BN
    blocks = a.shape[0] // 32 // BM * n_blocks
    k_blocks = a.shape[1] // 32 // BK
    per_core = -(-blocks // ttl.grid_size(dims=1))

    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(BK, BN), block_count=2)
    bias_dfb = ttl.make_dataflow_buffer_like(bias, shape=(1, BN), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(BM, BN), block_count=2)

    @ttl.datamovement()
    def read():
        first = ttl.node(dims=1) * per_core
        for blk in range(first, min(first + per_core, blocks)):
            mb, nb = blk // n_blocks, blk % n_blocks
            with bias_dfb.reserve() as bias_blk:
                ttl.copy(bias[0, nb * BN:(nb + 1) * BN], bias_blk).wait()
            for kb in range(k_blocks):
                with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                    a_xf = ttl.copy(a[mb * BM:(mb + 1) * BM, kb * BK:(kb + 1) * BK], a_blk)
                    b_xf = ttl.copy(b[kb * BK:(kb + 1) * BK, nb * BN:(nb + 1) * BN], b_blk)
                    a_xf.wait()
                    b_xf.wait()

    @ttl.compute()
    def compute():
        first = ttl.node(dims=1) * per_core
        for _ in range(first, min(first + per_core, blocks)):
            with bias_dfb.wait() as bias_blk, y_dfb.reserve() as y_blk:
                acc = ttl.block.fill(0.0, shape=(BM, BN))
                for _ in range(k_blocks):
                    with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                        acc = acc + a_blk @ b_blk
                y_blk.store(ttl.math.gelu(acc + ttl.block.broadcast(bias_blk, dims=[-2], shape=(BM, BN))))

    @ttl.datamovement()
    def write():
        first = ttl.node(dims=1) * per_core
        for blk in range(first, min(first + per_core, blocks)):
            mb, nb = blk // n_blocks, blk % n_blocks
            with y_dfb.wait() as y_blk:
                ttl.copy(y_blk, y[mb * BM:(mb + 1) * BM, nb * BN:(nb + 1) * BN]).wait()


torch.manual_seed(6)
M, K, N = 256, 512, 256
a_host = torch.randn(M, K).to(torch.bfloat16)
b_host = (torch.randn(K, N) / 16).to(torch.bfloat16)
bias_host = torch.randn(1, N).to(torch.bfloat16)
a = ttnn.from_torch(a_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(b_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
bias = ttnn.from_torch(bias_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((M, N), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
matmul_bias_gelu(a, b, bias, y)
want = torch.nn.functional.gelu(a_host.float() @ b_host.float() + bias_host.float())
got = ttnn.to_torch(y).float()
assert torch.allclose(got, want, rtol=2e-2, atol=2e-2), (got - want).abs().max()
print("matmul_bias_gelu: OK")
