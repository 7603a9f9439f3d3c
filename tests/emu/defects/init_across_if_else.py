"""Planted for the init state leaking across an if/else (found by the emulator in the
gather_pipes example, E5409): both branches multiply the same buffers with the FPU, so the lowering once took the
then-branch's ``mul_init`` as in force at the start of the else-branch, which then ran
``mul_tiles`` on a core where no init had run. Every buffer is bfloat16, so the products stay on
the FPU (Float32 operands go to the SFPU).
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(2, 1))
def squares_or_products(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def read():
        cx, _ = ttl.node(dims=2)
        with a_dfb.reserve() as ab, b_dfb.reserve() as bb:
            xa = ttl.copy(a[0, cx], ab)
            xb = ttl.copy(b[0, cx], bb)
            xa.wait()
            xb.wait()

    @ttl.compute()
    def math():
        cx, _ = ttl.node(dims=2)
        with a_dfb.wait() as ab, b_dfb.wait() as bb, y_dfb.reserve() as yb:
            if cx == 0:
                yb.store(ab * bb)
            else:
                yb.store(ab * bb * 2.0)

    @ttl.datamovement()
    def write():
        cx, _ = ttl.node(dims=2)
        with y_dfb.wait() as yb:
            ttl.copy(yb, y[0, cx]).wait()


torch.manual_seed(3)
a_host, b_host = torch.randn(32, 64), torch.randn(32, 64)
a = ttnn.from_torch(a_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(b_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
squares_or_products(a, b, y)
a16, b16 = a_host.bfloat16().float(), b_host.bfloat16().float()
want = torch.cat([a16[:, :32] * b16[:, :32], a16[:, 32:] * b16[:, 32:] * 2.0], dim=1).bfloat16()
# exact products in an fp32 DST; the packer rounds ties away from zero: one bfloat16 ulp
assert torch.allclose(ttnn.to_torch(y).float(), want.float(), rtol=2 ** -7, atol=0)
