import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(1, 1))
def kern(x, y):
    cb = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)

    @ttl.datamovement()
    def reader():
        blk = cb.reserve()
        blk.push()

    @ttl.datamovement()
    def writer():
        with cb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()  # ERROR-HERE

    return ttl.Program(reader, writer)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
