"""Softmax along rows, bfloat16, written as a user would (named expressions, no buffer for the
exponentials): the TT-Lang side of benchmarks/emit_vs_hand.py's softmax, whose hand-written side is
ttnn 0.81.1's own softmax kernels (tilecraft/ttnn/wheel_ops/norms.py). One band of 32 rows across the whole
width (1 x C tiles) per block; ``e`` is read by the row sum and by the normalization, and the
compiler decides where it lives.

The program asks for ttnn's precision: the row maximum, the exponentials and the reciprocal of their
sum are rounded to bfloat16 where they are named (``.to(ttnn.bfloat16)``, docs/language.md section
5.9), as ttnn's kernel packs each into a bfloat16 buffer; the compiler then subtracts the maximum and
multiplies by the reciprocal on the FPU with its broadcast forms, as that kernel does.

    python benchmarks/emit_programs/softmax_rows.py [--rows R] [--cols C]   (multiples of 32)
"""

import argparse

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def softmax(x: ttnn.Tensor, y: ttnn.Tensor) -> None:
    bands = x.shape[0] // 32
    C = x.shape[1] // 32
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, C), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, C), block_count=2)

    @ttl.datamovement()
    def read():
        for r in range(bands):
            with x_dfb.reserve() as x_blk:
                ttl.copy(x[r, 0:C], x_blk).wait()

    @ttl.compute()
    def compute():
        for _ in range(bands):
            with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                row_max = ttl.math.reduce_max(x_blk, dims=[-1]).to(ttnn.bfloat16)
                e = ttl.math.exp(x_blk - ttl.block.broadcast(row_max, dims=[-1], shape=(1, C))).to(ttnn.bfloat16)
                inv_total = ttl.math.recip(ttl.math.reduce_sum(e, dims=[-1])).to(ttnn.bfloat16)
                y_blk.store(e * ttl.block.broadcast(inv_total, dims=[-1], shape=(1, C)))

    @ttl.datamovement()
    def write():
        for r in range(bands):
            with y_dfb.wait() as y_blk:
                ttl.copy(y_blk, y[r, 0:C]).wait()


options = argparse.ArgumentParser(description="softmax along rows")
options.add_argument("--rows", type=int, default=256)
options.add_argument("--cols", type=int, default=512)
config = options.parse_args()
torch.manual_seed(4)
x_host = (torch.randn(config.rows, config.cols) * 3.0).to(torch.bfloat16)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((config.rows, config.cols), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
softmax(x, y)
got = ttnn.to_torch(y).float()
want = torch.softmax(x_host.float(), dim=-1)
assert torch.allclose(got, want, rtol=2e-2, atol=2e-3), (got - want).abs().max()
print("softmax_rows: OK")
