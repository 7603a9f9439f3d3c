import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(1, 1))  # ERROR-HERE
def kern(x, y):
    # 2 x 350 tiles x 2048 B = 1433600 B: over wormhole_b0's L1, under blackhole's
    wide = ttl.make_circular_buffer_like(x, shape=(1, 350), buffer_factor=2)

    @ttl.datamovement()
    def reader():
        pass

    return ttl.Program(reader)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
