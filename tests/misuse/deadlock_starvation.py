import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(2, 1))
def kern(x, y):
    cb = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)

    @ttl.datamovement()
    def reader():
        for i in range(2):
            with cb.reserve() as blk:
                ttl.copy(x[i, 0], blk).wait()

    @ttl.datamovement()
    def writer():
        for i in range(3):
            with cb.wait() as blk:  # BLOCKED-WRITER
                ttl.copy(blk, y[i % 2, 0]).wait()

    return ttl.Program(reader, writer)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
