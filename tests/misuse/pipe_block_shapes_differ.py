import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(2, 1))
def kern(x, y):
    pipe = ttl.Pipe(src_core=(1, 0), dst_core=(0, 0))
    small = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)
    wide = ttl.make_circular_buffer_like(x, shape=(1, 2), buffer_factor=2)

    @ttl.datamovement()
    def mover():
        def send(p):
            with small.reserve() as blk:
                ttl.copy(x[0, 0], blk).wait()
            with small.wait() as blk:
                ttl.copy(blk, p).wait()  # ERROR-HERE

        def receive(p):
            with wide.reserve() as blk:
                ttl.copy(p, blk).wait()  # RECEIVED-HERE
            with wide.wait() as blk:
                ttl.copy(blk, y[0, 0:2]).wait()

        ttl.if_pipe_src(pipe, send)
        ttl.if_pipe_dst(pipe, receive)

    return ttl.Program(mover)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
