import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(1, 1))
def kern(x, y):
    one = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)
    four = ttl.make_circular_buffer_like(x, shape=(2, 2), buffer_factor=2)

    @ttl.compute()
    def compute():
        with one.wait() as a, four.wait() as b, four.reserve() as o:
            o.store(a + b)  # ERROR-HERE

    return ttl.Program(compute)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
