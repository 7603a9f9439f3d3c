import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(2, 1))
def kern(x, y):
    pipe = ttl.Pipe(src_core=(1, 0), dst_core=(0, 0))
    cb = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)

    @ttl.datamovement()
    def sender():
        def send(p):
            with cb.reserve() as blk:
                ttl.copy(x[0, 0], blk).wait()
            with cb.wait() as blk:
                ttl.copy(blk, p).wait()  # ERROR-HERE

        ttl.if_pipe_src(pipe, send)

    return ttl.Program(sender)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
