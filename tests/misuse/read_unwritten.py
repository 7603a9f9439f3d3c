import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(1, 1))
def kern(x, y):
    scratch = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)
    out = ttl.make_circular_buffer_like(y, shape=(1, 1), buffer_factor=2)

    @ttl.compute()
    def compute():
        with scratch.reserve() as s, out.reserve() as o:
            o.store(s + 1.0)  # ERROR-HERE
        with scratch.wait() as s:
            pass

    @ttl.datamovement()
    def writer():
        with out.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()

    return ttl.Program(compute, writer)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
