"""RMSNorm along rows with a gain, bfloat16, written as a user would (named expressions, no buffer
for the statistics): y = x / sqrt(mean(x^2) + eps) * g. The TT-Lang side of
benchmarks/emit_vs_hand.py's RMSNorm, whose hand-written side is ttnn 0.81.1's own layernorm kernels
with RMSNORM defined (tilecraft/ttnn/wheel_ops/norms.py). One band of 32 rows across the width per block.

The program asks for ttnn's precision: the squares, the normalizer and the normalized rows are
rounded to bfloat16 where they are named (``.to(ttnn.bfloat16)``, docs/language.md section 5.9), as
ttnn's kernel packs each into a bfloat16 buffer; the compiler then squares, normalizes and applies the
gain on the FPU (the last two with its broadcast forms), as that kernel does.

    python benchmarks/emit_programs/rmsnorm_rows.py [--rows R] [--cols C]   (multiples of 32)
"""

import argparse

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

EPS = 1e-5


@ttl.operation(grid=(1, 1))
def rmsnorm(x: ttnn.Tensor, g: ttnn.Tensor, y: ttnn.Tensor) -> None:
    bands = x.shape[0] // 32
    C = x.shape[1] // 32
    inv_width = 1.0 / x.shape[1]
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
                    square = (x_blk * x_blk).to(ttnn.bfloat16)
                    mean_square = ttl.math.reduce_sum(square, dims=[-1]) * inv_width
                    inv_rms = ttl.math.rsqrt(mean_square + EPS).to(ttnn.bfloat16)
                    normed = (x_blk * ttl.block.broadcast(inv_rms, dims=[-1], shape=(1, C))).to(ttnn.bfloat16)
                    y_blk.store(normed * ttl.block.broadcast(g_blk, dims=[-2], shape=(1, C)))

    @ttl.datamovement()
    def write():
        for r in range(bands):
            with y_dfb.wait() as y_blk:
                ttl.copy(y_blk, y[r, 0:C]).wait()


options = argparse.ArgumentParser(description="RMSNorm along rows")
options.add_argument("--rows", type=int, default=256)
options.add_argument("--cols", type=int, default=512)
config = options.parse_args()
torch.manual_seed(5)
x_host = (torch.randn(config.rows, config.cols) + 0.5).to(torch.bfloat16)
g_host = (torch.rand(1, config.cols) + 0.5).to(torch.bfloat16)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
g = ttnn.from_torch(g_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((config.rows, config.cols), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
rmsnorm(x, g, y)
xf = x_host.double()
want = xf / torch.sqrt(xf.pow(2).mean(-1, keepdim=True) + EPS) * g_host.double()
got = ttnn.to_torch(y).double()
assert torch.allclose(got, want, rtol=2e-2, atol=2e-2), (got - want).abs().max()
print("rmsnorm_rows: OK")
