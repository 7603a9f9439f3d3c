"""Matmul with a local accumulator block, the TT-Lang 1.1.6 idiom: y = relu(a @ b).

The compute thread keeps its running sum in ``acc``, a block that lives in no buffer: it starts
as ``ttl.block.fill(0, shape=...)``, grows by ``acc += a_blk @ b_blk`` once per K step, and is
stored into the output block when the K loop ends (``out_blk.store(ttl.math.relu(acc))``). A
local block holds fp32 values (as DST does with fp32 accumulation), so the sum is rounded to
bfloat16 once, on the final store, not at every K step as a bfloat16 buffer would round it.
Work is split over a 2x2 grid by the node's linear index (``ttl.node(dims=1)``).
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BM, BK, BN = 2, 2, 1


@ttl.operation(grid=(2, 2))
def matmul_relu(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    m_blocks = a.shape[0] // TILE // BM
    k_blocks = a.shape[1] // TILE // BK
    n_blocks = b.shape[1] // TILE // BN
    nodes = ttl.grid_size(dims=1)
    blocks_per_node = -(-(m_blocks * n_blocks) // nodes)

    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(BK, BN), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(BM, BN), block_count=2)

    @ttl.datamovement()
    def load():
        first = ttl.node(dims=1) * blocks_per_node
        for i in range(first, min(first + blocks_per_node, m_blocks * n_blocks)):
            m0 = i // n_blocks * BM
            n0 = i % n_blocks * BN
            for kb in range(k_blocks):
                k0 = kb * BK
                with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                    a_xf = ttl.copy(a[m0:m0 + BM, k0:k0 + BK], a_blk)
                    b_xf = ttl.copy(b[k0:k0 + BK, n0:n0 + BN], b_blk)
                    a_xf.wait()
                    b_xf.wait()

    @ttl.compute()
    def mac():
        first = ttl.node(dims=1) * blocks_per_node
        for _ in range(first, min(first + blocks_per_node, m_blocks * n_blocks)):
            acc = ttl.block.fill(0, shape=(BM, BN))
            for _ in range(k_blocks):
                with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                    acc += a_blk @ b_blk
            with y_dfb.reserve() as out_blk:
                out_blk.store(ttl.math.relu(acc))

    @ttl.datamovement()
    def save():
        first = ttl.node(dims=1) * blocks_per_node
        for i in range(first, min(first + blocks_per_node, m_blocks * n_blocks)):
            m0 = i // n_blocks * BM
            n0 = i % n_blocks * BN
            with y_dfb.wait() as y_blk:
                ttl.copy(y_blk, y[m0:m0 + BM, n0:n0 + BN]).wait()


torch.manual_seed(5)
M, K, N = 2 * BM * TILE, 3 * BK * TILE, 3 * BN * TILE
a = torch.randn(M, K).to(torch.bfloat16)
b = torch.randn(K, N).to(torch.bfloat16)
a_t = ttnn.from_torch(a, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b_t = ttnn.from_torch(b, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y_t = ttnn.zeros((M, N), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
matmul_relu(a_t, b_t, y_t)

# accumulation in the matrix unit (products aligned in groups of eight, docs/numerics.md), one
# rounding to bfloat16 at the end: within one bfloat16 ulp of the largest result
want = torch.relu(a.double() @ b.double()).to(torch.bfloat16)
got = ttnn.to_torch(y_t)
assert (got.float() - want.float()).abs().max() <= 2 ** -7 * want.float().abs().max()
print("matmul_local_accumulator: OK")
