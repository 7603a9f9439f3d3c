"""Planted for block math on Int32 blocks (found by the ``--level cpp`` property campaign): the
emitter wrote the float calls (``sub_tiles``, ``binary_max_tile``), which the device computes on
the integers' bit patterns as floats. Every store here now takes 0.81.1's integer SFPU calls
(``add_int_tile``, ``mul_int_tile``, ``binary_max_int32_tile``, ``lt_int_tile``, ``where_tile``
on Int32, ``fill_tile_int``, ...). ``x`` and ``z`` hold small values with negatives (every product
fits), ``c`` the format's extremes (compared, never added). ``wrapped`` leaves the Int32 range:
the device and torch's int32 arithmetic wrap around, the language level saturates at the store
(docs/numerics.md).
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def int32_math(a, b, c, arith, select, flags, unary, wrapped):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=1)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=1)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=(1, 1), block_count=1)
    outs = [ttl.make_dataflow_buffer_like(t, shape=(1, 1), block_count=1)
            for t in (arith, select, flags, unary, wrapped)]

    @ttl.datamovement()
    def read():
        for tensor, dfb in ((a, a_dfb), (b, b_dfb), (c, c_dfb)):
            with dfb.reserve() as blk:
                ttl.copy(tensor[0, 0], blk).wait()

    @ttl.compute()
    def math():
        with a_dfb.wait() as x, b_dfb.wait() as z, c_dfb.wait() as e:
            with outs[0].reserve() as out:
                out.store(x * z - x + z - 7)
            with outs[1].reserve() as out:
                out.store(ttl.math.where(e >= x, ttl.math.max(e, z), ttl.math.min(e, x)))
            with outs[2].reserve() as out:
                out.store((e < x) + (e > z) * 2 + (x <= z) * 4 + (x >= e) * 8 + ttl.math.eq(x, z) * 16
                          + ttl.math.ne(e, x) * 32)
            with outs[3].reserve() as out:
                out.store(ttl.math.relu(x) - ttl.math.abs(z) + ttl.math.neg(x) * 2 + ttl.math.square(z)
                          - ttl.math.rsub(x, 5.0))
            with outs[4].reserve() as out:
                out.store(x * 65536)

    @ttl.datamovement()
    def write():
        for tensor, dfb in zip((arith, select, flags, unary, wrapped), outs):
            with dfb.wait() as blk:
                ttl.copy(blk, tensor[0, 0]).wait()


LO, HI = -(2**31), 2**31 - 1
torch.manual_seed(0)
x_host = torch.randint(-46000, 46001, (32, 32), dtype=torch.int32)
z_host = torch.randint(-46000, 46001, (32, 32), dtype=torch.int32)
c_host = torch.randint(LO, HI, (32, 32), dtype=torch.int32)
x_host[0, :6] = torch.tensor([0, -1, 1, -46000, 46000, 5])
z_host[0, :6] = torch.tensor([0, 1, -1, 46000, -46000, 5])
c_host[0, :6] = torch.tensor([LO, HI, LO + 1, HI - 1, 0, 5])
device = ttnn.open_device(device_id=0)
tensors = [ttnn.from_torch(t, dtype=ttnn.int32, layout=ttnn.TILE_LAYOUT, device=device)
           for t in (x_host, z_host, c_host)]
outputs = [ttnn.from_torch(torch.zeros(32, 32, dtype=torch.int32), dtype=ttnn.int32, layout=ttnn.TILE_LAYOUT,
                           device=device) for _ in range(5)]
int32_math(*tensors, *outputs)
