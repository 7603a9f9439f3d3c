"""A small tuned matmul for the accuracy measurement's tests: ``y = a @ b`` in K blocks of ``BK`` tiles
accumulated into a bfloat16 block, single core, at LoFi by default (the fidelity whose error shows)."""

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32


@ttl.autotune(configs=ttl.SearchSpace(BK=[1, 2]), key=["a", "b"], arch="n150", fidelity="LoFi")
@ttl.operation(grid=(1, 1))
def matmul(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor, *, BK: int):
    k_blocks = a.shape[1] // TILE // BK
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, BK), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(BK, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def load():
        for kb in range(k_blocks):
            with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                a_xf = ttl.copy(a[0:1, kb * BK:(kb + 1) * BK], a_blk)
                b_xf = ttl.copy(b[kb * BK:(kb + 1) * BK, 0:1], b_blk)
                a_xf.wait()
                b_xf.wait()

    @ttl.compute()
    def mac():
        with y_dfb.reserve() as y_blk:
            y_blk.store(ttl.block.fill(0.0, shape=y_blk.shape))
            for _ in range(k_blocks):
                with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                    y_blk += a_blk @ b_blk

    @ttl.datamovement()
    def save():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:1, 0:1]).wait()
