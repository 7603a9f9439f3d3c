"""Planted for defect 5 (where_tile format hard-coded): y = where(c, a, b) on float32 tensors.

With fp32 buffers the kernel runs with fp32_dest_acc_en, so DST holds fp32; the emitted
where_tile<DataFormat::Float16_b> reads DST as 16-bit values.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def select(c: ttnn.Tensor, a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=(1, 1), block_count=2)
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def read():
        with c_dfb.reserve() as c_blk, a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
            c_xf = ttl.copy(c[0, 0], c_blk)
            a_xf = ttl.copy(a[0, 0], a_blk)
            b_xf = ttl.copy(b[0, 0], b_blk)
            c_xf.wait()
            a_xf.wait()
            b_xf.wait()

    @ttl.compute()
    def pick():
        with c_dfb.wait() as c_blk, a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
            y_blk.store(ttl.math.where(c_blk, a_blk, b_blk))

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


torch.manual_seed(0)
c = ttnn.from_torch((torch.randn(32, 32) > 0).float(), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
a = ttnn.from_torch(torch.randn(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(torch.randn(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
select(c, a, b, y)
