import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(8, 8))
def kern(x, y):
    a = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)
    b = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)

    @ttl.datamovement()
    def reader():
        with b.wait() as bb:  # BLOCKED-READER
            with a.reserve() as aa:
                ttl.copy(bb, aa).wait()

    @ttl.compute()
    def compute():
        with a.wait() as aa, b.reserve() as bb:  # BLOCKED-COMPUTE
            bb.store(aa + 1.0)

    return ttl.Program(compute, reader)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
