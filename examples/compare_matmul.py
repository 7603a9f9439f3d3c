"""y = a @ b with one output tile per block and the whole K strip in one block: docs/emit.md's
matmul comparison.

Compared with tilecraft/metal/reference_kernels/matmul: for each output tile, matmul_tiles over
the K tiles accumulates in one DST tile, then one pack. Here the reader brings a (1 x Kt) strip
of a and a (Kt x 1) strip of b, and ``a_blk @ b_blk`` is that same K loop inside one DST
acquisition (see docs/emit.md for the ``+=`` formulation and what it costs).
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def tiled_matmul(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    mt, kt, nt = a.shape[0] // 32, a.shape[1] // 32, b.shape[1] // 32
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, kt), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(kt, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        for m in range(mt):
            for n in range(nt):
                with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                    a_xf = ttl.copy(a[m, 0:kt], a_blk)
                    b_xf = ttl.copy(b[0:kt, n], b_blk)
                    a_xf.wait()
                    b_xf.wait()

    @ttl.compute()
    def compute():
        for _ in range(mt * nt):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
                y_blk.store(a_blk @ b_blk)

    @ttl.datamovement()
    def writer():
        for m in range(mt):
            for n in range(nt):
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[m, n]).wait()


torch.manual_seed(0)
a_host, b_host = torch.randn(64, 128), torch.randn(128, 96)
a = ttnn.from_torch(a_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(b_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 96), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
tiled_matmul(a, b, y)
want = a_host.to(torch.bfloat16).float() @ b_host.to(torch.bfloat16).float()
assert torch.allclose(ttnn.to_torch(y).float(), want, rtol=2e-2, atol=2e-1)
print("compare_matmul: OK")
