import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(1, 1))
def kern(x, y):
    x_cb = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)
    y_cb = ttl.make_circular_buffer_like(y, shape=(1, 1), buffer_factor=2)

    @ttl.compute()
    def compute():
        with x_cb.wait() as a, y_cb.reserve() as o:
            e = ttl.math.exp(a).to(ttnn.float32)  # ERROR-HERE
            o.store(e * a)

    return ttl.Program(compute)(x, y)


x = ttnn.rand((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
