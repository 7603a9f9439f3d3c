import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(1, 1))  # ERROR-HERE
def kern(x, y):
    big = ttl.make_circular_buffer_like(x, shape=(32, 32), buffer_factor=2)  # BIG-HERE
    small = ttl.make_circular_buffer_like(y, shape=(1, 1), buffer_factor=2)  # SMALL-HERE

    @ttl.datamovement()
    def reader():
        with big.reserve() as blk:
            ttl.copy(x[0:32, 0:32], blk).wait()
        with small.reserve() as blk:
            ttl.copy(y[0, 0], blk).wait()

    return ttl.Program(reader)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
