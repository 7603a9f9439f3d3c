"""y = x * g with g (1, N) broadcast down the rows, bfloat16, one band (1 x C tiles) per block: the
TT-Lang side of benchmarks/emit_vs_hand.py's broadcast (hand-written:
tilecraft/metal/reference_kernels/broadcast_rows)."""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def scale_columns(x: ttnn.Tensor, g: ttnn.Tensor, y: ttnn.Tensor) -> None:
    bands = x.shape[0] // 32
    C = x.shape[1] // 32
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, C), block_count=2)
    g_dfb = ttl.make_dataflow_buffer_like(g, shape=(1, C), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, C), block_count=2)

    @ttl.datamovement()
    def read():
        with g_dfb.reserve() as g_blk:
            ttl.copy(g[0, 0:C], g_blk).wait()
        for r in range(bands):
            with x_dfb.reserve() as x_blk:
                ttl.copy(x[r, 0:C], x_blk).wait()

    @ttl.compute()
    def compute():
        with g_dfb.wait() as g_blk:
            for _ in range(bands):
                with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                    y_blk.store(x_blk * ttl.block.broadcast(g_blk, dims=[-2], shape=y_blk.shape))

    @ttl.datamovement()
    def write():
        for r in range(bands):
            with y_dfb.wait() as y_blk:
                ttl.copy(y_blk, y[r, 0:C]).wait()


torch.manual_seed(0)
M, N = 8 * 32, 8 * 32
x_host = torch.randn(M, N).to(torch.bfloat16)
g_host = (torch.rand(1, N) + 0.5).to(torch.bfloat16)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
g = ttnn.from_torch(g_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((M, N), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
scale_columns(x, g, y)
want = (x_host.float() * g_host.float()).to(torch.bfloat16).float()
assert torch.allclose(ttnn.to_torch(y).float(), want, rtol=1e-2, atol=1e-2)
print("broadcast_rows: OK")
