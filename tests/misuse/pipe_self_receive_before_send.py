import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(x, y):
    net = ttl.PipeNet([ttl.Pipe(src=(0, 0), dst=(0, 0))])
    s_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    r_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def mover():
        with s_dfb.reserve() as blk:
            ttl.copy(x[0, 0], blk).wait()
        with s_dfb.wait() as src, r_dfb.reserve() as dst:
            def receive(rpipe):  # waits for the block the send below has not started to send
                ttl.copy(rpipe, dst).wait()  # ERROR-HERE

                def send(spipe):
                    ttl.copy(src, spipe).wait()

                net.if_src(send)

            net.if_dst(receive)
        with r_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


x = ttnn.rand((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(x, y)
