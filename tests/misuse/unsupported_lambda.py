import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(1, 1))
def kern(x, y):
    @ttl.datamovement()
    def reader():
        twice = lambda v: 2 * v  # ERROR-HERE

    return ttl.Program(reader)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
