import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(2, 1))
def kern(x, y):
    pipe = ttl.Pipe(src_core=(1, 0), dst_core=(0, 0))  # PIPE-HERE
    cb = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)

    @ttl.datamovement()
    def mover():
        def send(p):
            for i in range(2):
                with cb.reserve() as blk:
                    ttl.copy(x[i % 2, 0], blk).wait()
                with cb.wait() as blk:
                    ttl.copy(blk, p).wait()  # SEND-HERE

        def receive(p):
            for i in range(1):
                with cb.reserve() as blk:
                    ttl.copy(p, blk).wait()  # RECEIVE-HERE
                with cb.wait() as blk:
                    ttl.copy(blk, y[i, 0]).wait()

        ttl.if_pipe_src(pipe, send)
        ttl.if_pipe_dst(pipe, receive)

    return ttl.Program(mover)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
