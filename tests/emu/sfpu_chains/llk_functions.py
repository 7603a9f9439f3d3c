"""SFPU functions whose LLK algorithms (polynomials, tables, Newton steps on the Tensix machine) are
not correctly rounded, three products of two per output so that a one-ulp difference in either
shows (tests/emu/test_numerics_device.py)."""

import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def functions(x, y1, y2, y3):
    rows = x.shape[0] // 32
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y1_dfb = ttl.make_dataflow_buffer_like(y1, shape=(1, 1), block_count=2)
    y2_dfb = ttl.make_dataflow_buffer_like(y2, shape=(1, 1), block_count=2)
    y3_dfb = ttl.make_dataflow_buffer_like(y3, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        for r in range(rows):
            with x_dfb.reserve() as blk:
                ttl.copy(x[r, 0], blk).wait()

    @ttl.compute()
    def compute():
        for _ in range(rows):
            with x_dfb.wait() as xb:
                with y1_dfb.reserve() as yb:
                    yb.store(ttl.math.tanh(xb) * ttl.math.selu(xb) + ttl.math.exp(xb) * ttl.math.sigmoid(xb))
                with y2_dfb.reserve() as yb:
                    yb.store(ttl.math.softplus(xb) * ttl.math.log2(ttl.math.abs(xb)) + ttl.math.mish(xb))
                with y3_dfb.reserve() as yb:
                    yb.store(ttl.math.rsqrt(ttl.math.abs(xb)) * ttl.math.elu(xb, 0.5) + xb ** 3
                             + ttl.math.hardswish(xb) * ttl.math.log10(ttl.math.abs(xb)))

    @ttl.datamovement()
    def writer():
        for r in range(rows):
            with y1_dfb.wait() as blk:
                ttl.copy(blk, y1[r, 0]).wait()
            with y2_dfb.wait() as blk:
                ttl.copy(blk, y2[r, 0]).wait()
            with y3_dfb.wait() as blk:
                ttl.copy(blk, y3[r, 0]).wait()


torch.manual_seed(0)
x = ttnn.from_torch(torch.rand((96, 32)) * 8 - 4, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
outputs = [ttnn.zeros((96, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT) for _ in range(3)]
functions(x, *outputs)
