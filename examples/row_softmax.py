"""Softmax along rows, in bfloat16: y = exp(x - max(x)) / sum(exp(x - max(x))), row by row.

A block is one band of 32 rows across the whole width (1 x C tiles). The row maxima come from
``reduce_max`` and the sums from ``reduce_sum`` (each lands in column 0 of a one-tile block);
``ttl.block.broadcast(..., dims=[-1])`` replicates that column across the band. Both broadcast
operands are *computed* values, so the emitted kernel stages them in intermediate buffers; those
are fp32, because the language rounds nothing between the operations of one expression, and so
the lowered program computes the same bits as the program as written. The exponentials are stored
in a buffer of their own (bfloat16) between the two reductions.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def softmax(x: ttnn.Tensor, y: ttnn.Tensor) -> None:
    bands = x.shape[0] // 32
    C = x.shape[1] // 32

    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, C), block_count=2)
    e_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, C), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, C), block_count=2)

    @ttl.datamovement()
    def read():
        for r in range(bands):
            with x_dfb.reserve() as x_blk:
                ttl.copy(x[r, 0:C], x_blk).wait()

    @ttl.compute()
    def compute():
        for _ in range(bands):
            with x_dfb.wait() as x_blk, e_dfb.reserve() as e_blk:
                row_max = ttl.block.broadcast(ttl.math.reduce_max(x_blk, dims=[-1]), dims=[-1], shape=(1, C))
                e_blk.store(ttl.math.exp(x_blk - row_max))
            with e_dfb.wait() as e_blk, y_dfb.reserve() as y_blk:
                total = ttl.block.broadcast(ttl.math.reduce_sum(e_blk, dims=[-1]), dims=[-1], shape=(1, C))
                y_blk.store(e_blk * ttl.math.recip(total))

    @ttl.datamovement()
    def write():
        for r in range(bands):
            with y_dfb.wait() as y_blk:
                ttl.copy(y_blk, y[r, 0:C]).wait()


torch.manual_seed(4)
M, N = 2 * 32, 4 * 32
x_host = torch.randn(M, N) * 3.0
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(M, N), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
softmax(x, y)

got = ttnn.to_torch(y).float()
want = torch.softmax(x_host.to(torch.bfloat16).float(), dim=-1)
# the exponentials are stored in bfloat16 before they are summed: a few bf16 ulps
assert torch.allclose(got, want, rtol=2e-2, atol=2e-3), (got - want).abs().max()
assert torch.allclose(got.sum(-1), torch.ones(M), atol=2e-2)
print("row_softmax: OK")
