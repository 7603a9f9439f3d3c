import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(2, 1))
def kern(x, y):
    cb = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)

    @ttl.datamovement()
    def reader():
        first = cb.reserve()  # FIRST-RESERVE
        second = cb.reserve()
        third = cb.reserve()  # BLOCKED-READER
        ttl.copy(x[0, 0], first).wait()
        ttl.copy(x[1, 0], second).wait()
        ttl.copy(x[0, 1], third).wait()
        first.push()
        second.push()
        third.push()

    @ttl.datamovement()
    def writer():
        for i in range(3):
            with cb.wait() as blk:  # BLOCKED-WRITER
                ttl.copy(blk, y[i % 2, 0]).wait()

    return ttl.Program(reader, writer)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
