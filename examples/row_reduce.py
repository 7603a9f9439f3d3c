"""Row sums and row maxima with ``ttl.math.reduce_sum`` / ``ttl.math.reduce_max``.

A reduce over the columns (``dims=[1]``) of a (BR x BC)-tile block gives a block one tile
wide (``shape=(BR, 1)``); as on the device, each row's result sits in **column 0** of that
tile and the other 31 columns are zero (docs/numerics.md, "Reduce"). The compute thread folds
the column blocks of each row band together: ``+=`` for the sums and the element-wise
``ttl.math.max`` for the maxima. The golden reads column 0 and also checks the zeros.

Written in the TT-Lang 1.1 spelling (``@ttl.operation``, ``make_dataflow_buffer_like``).
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

BR, BC = 2, 3  # block: 2 tile rows by 3 tile columns


@ttl.operation(grid=(1, 1))
def row_stats(x: ttnn.Tensor, sums: ttnn.Tensor, maxes: ttnn.Tensor) -> None:
    row_blocks = x.shape[0] // 32 // BR
    col_blocks = x.shape[1] // 32 // BC

    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(BR, BC), block_count=2)
    sum_dfb = ttl.make_dataflow_buffer_like(sums, shape=(BR, 1), block_count=2)
    max_dfb = ttl.make_dataflow_buffer_like(maxes, shape=(BR, 1), block_count=2)

    @ttl.datamovement()
    def read():
        for rb in range(row_blocks):
            for cb in range(col_blocks):
                with x_dfb.reserve() as blk:
                    xf = ttl.copy(x[rb * BR:(rb + 1) * BR, cb * BC:(cb + 1) * BC], blk)
                    xf.wait()

    @ttl.compute()
    def reduce():
        for _ in range(row_blocks):
            with sum_dfb.reserve() as s, max_dfb.reserve() as m:
                with x_dfb.wait() as blk:
                    s.store(ttl.math.reduce_sum(blk, dims=[1], shape=(BR, 1)))
                    m.store(ttl.math.reduce_max(blk, dims=[1], shape=(BR, 1)))
                for _ in range(col_blocks - 1):
                    with x_dfb.wait() as blk:
                        s += ttl.math.reduce_sum(blk, dims=[1], shape=(BR, 1))
                        m.store(ttl.math.max(m, ttl.math.reduce_max(blk, dims=[1], shape=(BR, 1))))

    @ttl.datamovement()
    def write():
        for rb in range(row_blocks):
            with sum_dfb.wait() as s, max_dfb.wait() as m:
                s_xf = ttl.copy(s, sums[rb * BR:(rb + 1) * BR, 0])
                m_xf = ttl.copy(m, maxes[rb * BR:(rb + 1) * BR, 0])
                s_xf.wait()
                m_xf.wait()


torch.manual_seed(8)
x_host = torch.randn(2 * BR * 32, 2 * BC * 32, dtype=torch.bfloat16)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
sums = ttnn.zeros((x_host.shape[0], 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
maxes = ttnn.zeros((x_host.shape[0], 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)

row_stats(x, sums, maxes)

got_sums, got_maxes = ttnn.to_torch(sums), ttnn.to_torch(maxes)
# the matrix unit sums in groups of eight aligned products (docs/numerics.md): about 2^-10 of the terms
assert torch.allclose(got_sums[:, 0], x_host.float().sum(1), rtol=0, atol=2 ** -10 * x_host.float().abs().sum(1).max())
assert torch.equal(got_maxes[:, 0], x_host.float().amax(1))
assert not got_sums[:, 1:].any() and not got_maxes[:, 1:].any(), "reduced values live in column 0 only"
print("row_reduce: OK")
