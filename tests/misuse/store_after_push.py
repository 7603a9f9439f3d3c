import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(1, 1))
def kern(x, y):
    out = ttl.make_circular_buffer_like(y, shape=(1, 1), buffer_factor=2)

    @ttl.compute()
    def compute():
        blk = out.reserve()
        blk.store(ttl.math.fill(1.0, (1, 1)))
        blk.push()
        blk.store(ttl.math.fill(2.0, (1, 1)))  # ERROR-HERE

    @ttl.datamovement()
    def writer():
        with out.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()

    return ttl.Program(compute, writer)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
