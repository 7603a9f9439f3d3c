"""A thread that calls a module-level helper (for go to definition)."""

import tilecraft as ttl
import tilecraft.ttnn as ttnn


def scaled(blk, factor):  # HELPER-DEF
    return blk * factor


@ttl.kernel(grid=(1, 1))
def scale(x, y):
    x_cb = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)
    y_cb = ttl.make_circular_buffer_like(y, shape=(1, 1), buffer_factor=2)

    @ttl.datamovement()
    def reader():
        with x_cb.reserve() as blk:
            ttl.copy(x[0, 0], blk).wait()

    @ttl.compute()
    def compute():
        with x_cb.wait() as xb, y_cb.reserve() as yb:
            yb.store(scaled(xb, 2.0))  # HELPER-CALL

    @ttl.datamovement()
    def writer():
        with y_cb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()

    return ttl.Program(compute, reader, writer)(x, y)


x = ttnn.ones((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
scale(x, y)
