"""y[:, 0] = row sums of x, bfloat16, one band of 32 rows (1 x C tiles) per block: the TT-Lang side of
benchmarks/emit_vs_hand.py's reduce (hand-written: tilecraft/metal/reference_kernels/reduce_rows)."""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def reduce_rows(x: ttnn.Tensor, y: ttnn.Tensor) -> None:
    bands = x.shape[0] // 32
    C = x.shape[1] // 32
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, C), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def read():
        for r in range(bands):
            with x_dfb.reserve() as x_blk:
                ttl.copy(x[r, 0:C], x_blk).wait()

    @ttl.compute()
    def compute():
        for _ in range(bands):
            with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                y_blk.store(ttl.math.reduce_sum(x_blk, dims=[-1]))

    @ttl.datamovement()
    def write():
        for r in range(bands):
            with y_dfb.wait() as y_blk:
                ttl.copy(y_blk, y[r, 0]).wait()


torch.manual_seed(0)
M, N = 8 * 32, 8 * 32
x_host = torch.randn(M, N).to(torch.bfloat16)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((M, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
reduce_rows(x, y)
got = ttnn.to_torch(y).float()
assert torch.allclose(got[:, 0], x_host.float().sum(1), rtol=2e-2, atol=0.3), (got[:, 0] - x_host.float().sum(1)).abs().max()
print("reduce_rows: OK")
