import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(3, 1))
def kern(x, y):
    net = ttl.PipeNet([ttl.Pipe((0, 0), (slice(1, 3), 0))])
    dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def mover():
        def send(pipe):
            col, _ = pipe.dst  # ERROR-HERE
            with dfb.reserve() as blk:
                ttl.copy(x[0, col], blk).wait()
                ttl.copy(blk, pipe).wait()

        def receive(pipe):
            with dfb.reserve() as blk:
                ttl.copy(pipe, blk).wait()
            with dfb.wait() as blk:
                ttl.copy(blk, y[0, 0]).wait()

        net.if_src(send)
        net.if_dst(receive)


x = ttnn.from_torch(torch.ones(32, 96), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(x, ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT))
