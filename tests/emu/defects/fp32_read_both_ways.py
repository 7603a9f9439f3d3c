"""Planted for a Float32 block read both by the FPU and into DST (the last expected failure of
tests/emu/test_examples_cpp.py, broadcast_center_rows): ``y = x - rowmax(x)``, where
``reduce_max`` reads ``x`` through SrcA and the subtraction copies ``x`` into DST. One buffer index
cannot do both with all 32 bits (UnpackToDestFp32 is per index, and no FPU operation reads a
buffer in that mode), so the copy read TF32: 13 mantissa bits gone (E5411). The copies now read a
second index on the same pages (metal/dst_view.py), which the kernel that pushes the buffer's
pages publishes too: the reader for ``x_dfb``, the compute kernel itself for ``w_dfb`` (a copy of
``x`` it stores and reads back, ``z = w - rowmax(w)``).

Every row's maximum is 4.5, exact in TF32, so the reduce gives the same value on the device as
in fp32 and every level computes the same bits; the other values carry all 23 mantissa bits,
so a TF32 copy of them would not.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def minus_row_max(x: ttnn.Tensor, y: ttnn.Tensor, z: ttnn.Tensor):
    C = x.shape[1] // 32
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, C), block_count=2)
    w_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, C), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, C), block_count=2)
    z_dfb = ttl.make_dataflow_buffer_like(z, shape=(1, C), block_count=2)

    @ttl.datamovement()
    def read():
        for r in range(x.shape[0] // 32):
            with x_dfb.reserve() as blk:
                ttl.copy(x[r, 0:C], blk).wait()

    @ttl.compute()
    def math():
        for _ in range(x.shape[0] // 32):
            with x_dfb.wait() as xb, y_dfb.reserve() as yb, w_dfb.reserve() as wr:
                row_max = ttl.math.reduce_max(xb, dims=[-1], shape=(1, 1))
                yb.store(xb - ttl.block.broadcast(row_max, dims=[-1], shape=yb.shape))
                wr.store(xb * 1.0)
            with w_dfb.wait() as wb, z_dfb.reserve() as zb:
                zb.store(wb - ttl.block.broadcast(ttl.math.reduce_max(wb, dims=[-1], shape=(1, 1)), dims=[-1],
                                                  shape=zb.shape))

    @ttl.datamovement()
    def write():
        for r in range(x.shape[0] // 32):
            with y_dfb.wait() as yb, z_dfb.wait() as zb:
                ttl.copy(yb, y[r, 0:C]).wait()
                ttl.copy(zb, z[r, 0:C]).wait()


torch.manual_seed(3)
x_host = torch.rand(64, 64) * 4.0
x_host[torch.arange(64), torch.randint(0, 64, (64,))] = 4.5
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
z = ttnn.zeros((64, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
minus_row_max(x, y, z)
assert torch.equal(ttnn.to_torch(y), x_host - 4.5) and torch.equal(ttnn.to_torch(z), x_host - 4.5)
