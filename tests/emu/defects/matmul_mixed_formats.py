"""Planted for defect 2 (matmul startup order): y = a @ b with a in bfloat16 and b in bfloat8_b.

matmul unpacks in0 (a) through SrcB and in1 (b) through SrcA, so the unpacker must be started
with the operands reversed (compute_kernel_hw_startup<SrcOrder::Reverse>); the regular order
configures SrcA for a's format and SrcB for b's, and the first matmul_tiles unpacks b through
a SrcA set up for bfloat16. Only visible when the two formats differ.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def mixed_matmul(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def load():
        with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
            a_xf = ttl.copy(a[0, 0], a_blk)
            b_xf = ttl.copy(b[0, 0], b_blk)
            a_xf.wait()
            b_xf.wait()

    @ttl.compute()
    def mac():
        with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
            y_blk.store(a_blk @ b_blk)

    @ttl.datamovement()
    def save():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0, 0]).wait()


torch.manual_seed(0)
a = ttnn.from_torch(torch.randn(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(torch.randn(32, 32), dtype=ttnn.bfloat8_b, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
mixed_matmul(a, b, y)
