"""Constants fold: grid sizes, branches on constants, proven slice extents."""
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn

G = 2


@ttl.kernel(grid=(1, 1))
def folding(a, y):
    rows = a.shape[0] // 32
    a_cb = ttl.make_circular_buffer_like(a, shape=(G, 1), buffer_factor=2)
    y_cb = ttl.make_circular_buffer_like(y, shape=(G, 1), buffer_factor=2)

    @ttl.datamovement()
    def reader():
        gx, gy = ttl.grid_size()
        if gx * gy == 1:  # decided at compile time
            for r in range(rows // G):
                with a_cb.reserve() as blk:
                    # CHECK: scf.for %r = 0 to 2 step 1
                    # CHECK: dm.read src=%a[%t+:2, 0:1]
                    ttl.copy(a[r * G:(r + 1) * G, 0], blk).wait()
        # CHECK-NOT: scf.if

    @ttl.compute()
    def compute():
        for _ in range(rows // G):
            with a_cb.wait() as x, y_cb.reserve() as out:
                # CHECK: tile.binary fn=pow, %a_cb_blk, 2.0
                # CHECK: tile.unary fn=sqrt
                # CHECK: block.store %y_cb_blk
                out.store(ttl.math.sqrt(x ** 2))

    @ttl.datamovement()
    def writer():
        for r in range(rows // G):
            with y_cb.wait() as blk:
                ttl.copy(blk, y[r * G:(r + 1) * G, 0:1]).wait()

    return ttl.Program(reader, compute, writer)(a, y)


x = torch.randn(128, 32)
a = ttnn.from_torch(x, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(128, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
folding(a, y)
assert torch.allclose(ttnn.to_torch(y), x.abs(), atol=1e-5)
