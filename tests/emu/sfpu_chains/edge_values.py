"""Block math on Float32 values at the edges of the format: denormals, signed zeros, infinities,
NaNs, the largest and smallest normals, next to ordinary values. The device's bits there are not
IEEE's: the SFPU reads and writes denormals as zero and writes NaNs its own way on each
architecture (sums, products, max/min, comparisons); the matrix unit has neither denormals nor
NaNs (exponent 255 is a number there, and a result of 2^128 or more is an infinity: sums, products,
matmul, reduce, transpose); ``where`` tests its condition's bits. ``--numerics device`` must give
the emulator's bits (tests/emu/test_numerics_device.py).

The data format is the script's argument (float32 by default, or bfloat16: then the SFPU's operands
pass SrcA on their way into DST, which makes denormals +0 and NaNs infinities)."""

import sys

import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def edges(a, b, y1, y2, y3, y4):
    rows = a.shape[0] // 32
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    outs = [ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2) for y in (y1, y2, y3, y4)]

    @ttl.datamovement()
    def reader():
        for r in range(rows):
            with a_dfb.reserve() as ablk, b_dfb.reserve() as bblk:
                ttl.copy(a[r, 0], ablk).wait()
                ttl.copy(b[r, 0], bblk).wait()

    @ttl.compute()
    def compute():
        for _ in range(rows):
            with a_dfb.wait() as x, b_dfb.wait() as z:
                with outs[0].reserve() as o:  # SFPU add, sub, mul of two computed tiles
                    o.store(ttl.math.neg(x) * ttl.math.abs(z) + (ttl.math.abs(x) - ttl.math.neg(z)))
                with outs[1].reserve() as o:  # by a number: mul_unary_tile, add_unary_tile, x / 2 as x * 0.5
                    o.store((x * 3.0 + 1.0e-38) / 2.0 - 1.5)
                with outs[2].reserve() as o:
                    o.store(ttl.math.max(x, z) + ttl.math.min(x, z) * 0.25)
                with outs[3].reserve() as o:  # 1 or 0 each, weighted so that every answer shows
                    o.store(ttl.math.lt(x, z) + ttl.math.eq(x, z) * 2.0 + ttl.math.gt(x, z) * 4.0
                            + ttl.math.ge(x, 0.0) * 8.0)

    @ttl.datamovement()
    def writer():
        for r in range(rows):
            for dfb, y in zip(outs, (y1, y2, y3, y4)):
                with dfb.wait() as blk:
                    ttl.copy(blk, y[r, 0]).wait()


@ttl.operation(grid=(1, 1))
def fpu_edges(a, b, y1, y2, y3, y4, y5, y6, y7, y8, y9, y10):
    rows = a.shape[0] // 32
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    outs = [ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2) for y in (y1, y2, y3, y4, y5, y6, y7, y8, y9, y10)]

    @ttl.datamovement()
    def reader():
        for r in range(rows):
            with a_dfb.reserve() as ablk, b_dfb.reserve() as bblk:
                ttl.copy(a[r, 0], ablk).wait()
                ttl.copy(b[r, 0], bblk).wait()

    @ttl.compute()
    def compute():
        for _ in range(rows):
            with a_dfb.wait() as x, b_dfb.wait() as z:
                with outs[0].reserve() as o:  # the matrix unit: ELWADD, ELWMUL, MVMUL
                    o.store(x + z)
                with outs[1].reserve() as o:
                    o.store(x * z)
                with outs[2].reserve() as o:
                    o.store(x @ z)
                with outs[3].reserve() as o:  # max and sum pools, through SrcA
                    o.store(ttl.block.broadcast(ttl.math.reduce_max(x, dims=[-1], shape=(1, 1)), dims=[-1],
                                                shape=o.shape)
                            + ttl.block.broadcast(ttl.math.reduce_sum(z, dims=[-2], shape=(1, 1)), dims=[-2],
                                                  shape=o.shape))
                with outs[4].reserve() as o:
                    o.store(ttl.block.transpose(x))
                with outs[5].reserve() as o:
                    o.store(ttl.math.where(x, x, ttl.math.neg(z)))
                with outs[6].reserve() as o:  # the max pool orders by sign and magnitude: NaN above inf
                    o.store(ttl.block.broadcast(ttl.math.reduce_max(x, dims=[-2, -1], shape=(1, 1)), dims=[-2, -1],
                                                shape=o.shape))
                with outs[7].reserve() as o:
                    o.store(ttl.block.broadcast(ttl.math.reduce_max(z, dims=[-2], shape=(1, 1)), dims=[-2],
                                                shape=o.shape))
                with outs[8].reserve() as o:  # a broadcast operand: the FPU's, then the SFPU's (unary_bcast)
                    o.store(x + ttl.block.broadcast(z, dims=[-1], shape=o.shape))
                with outs[9].reserve() as o:
                    o.store(ttl.math.abs(x) * ttl.block.broadcast(z, dims=[-2], shape=o.shape))

    @ttl.datamovement()
    def writer():
        for r in range(rows):
            for dfb, y in zip(outs, (y1, y2, y3, y4, y5, y6, y7, y8, y9, y10)):
                with dfb.wait() as blk:
                    ttl.copy(blk, y[r, 0]).wait()


SPECIAL = [0.0, -0.0, 1.0, -1.0, float("inf"), float("-inf"), float("nan"), 1e-38, -1e-38, 1e-45, 5.9e-39,
           1.1754944e-38, -1.1754944e-38, 2.3509887e-38, 3.4e38, -3.4e38, 1.0000001, 0.99999994, 1.5, 1e-30]
torch.manual_seed(0)
special = torch.tensor(SPECIAL)
pairs_a = special.repeat_interleave(len(SPECIAL))
pairs_b = special.repeat(len(SPECIAL))
fill = 4 * 1024 - pairs_a.numel()  # then values across the exponent range, denormals included
scale = lambda n: torch.randn(n) * torch.pow(2.0, torch.randint(-140, 120, (n,)).float())  # noqa: E731
a_host = torch.cat([pairs_a, scale(fill)]).view(128, 32)
b_host = torch.cat([pairs_b, scale(fill)]).view(128, 32)
DTYPE = getattr(ttnn, sys.argv[1] if len(sys.argv) > 1 else "float32")
a = ttnn.from_torch(a_host, dtype=DTYPE, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(b_host, dtype=DTYPE, layout=ttnn.TILE_LAYOUT)
outputs = [ttnn.zeros((128, 32), dtype=DTYPE, layout=ttnn.TILE_LAYOUT) for _ in range(4)]
edges(a, b, *outputs)
fpu_outputs = [ttnn.zeros((128, 32), dtype=DTYPE, layout=ttnn.TILE_LAYOUT) for _ in range(10)]
fpu_edges(a, b, *fpu_outputs)
