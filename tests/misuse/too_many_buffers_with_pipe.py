import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(2, 1))  # ERROR-HERE
def kern(a, y):
    # 31 buffers of its own fit a Wormhole core's 32; the pipe's landing slots and flags, which the
    # compiler adds, make 33
    pipe = ttl.Pipe(src=(0, 0), dst=(1, 0))
    dfbs = [ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=1) for _ in range(31)]
    a_dfb, y_dfb = dfbs[0], dfbs[30]

    @ttl.datamovement()
    def reader():
        def send(pipe):
            with a_dfb.reserve() as blk:
                ttl.copy(a[0, 0], blk).wait()
            with a_dfb.wait() as blk:
                ttl.copy(blk, pipe).wait()

        def receive(pipe):
            with y_dfb.reserve() as blk:
                ttl.copy(pipe, blk).wait()

        ttl.if_pipe_src(pipe, send)
        ttl.if_pipe_dst(pipe, receive)

    @ttl.datamovement()
    def writer():
        x, _ = ttl.node(dims=2)
        if x == 1:
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[0, 0]).wait()


a = ttnn.from_torch(torch.rand(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(a, y)
assert torch.equal(ttnn.to_torch(y), ttnn.to_torch(a))
