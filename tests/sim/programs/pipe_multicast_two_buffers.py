"""A multicast from node (0, 0) to nodes (1, 0) and (2, 0), which receive it into different
buffers. Buffered pipes (the language's) run it; landed in place, the one multicast write would
need one address on both: the direct-landing proof must refuse it (sim/language/direct_landing.py)."""
import torch

import ttl
import ttnn


@ttl.operation(grid=(3, 1))
def fan_out(s, y):
    net = ttl.PipeNet([ttl.Pipe(src=(0, 0), dst=(slice(1, 3), 0))])
    s_dfb = ttl.make_dataflow_buffer_like(s, shape=(1, 1), block_count=2)
    p_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)
    q_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def idle():
        pass

    @ttl.datamovement()
    def move():
        nx, _ = ttl.node(dims=2)

        def send(pipe):
            with s_dfb.reserve() as blk:
                ttl.copy(s[0, 0], blk).wait()
            with s_dfb.wait() as blk:
                ttl.copy(blk, pipe).wait()

        def receive(pipe):
            if nx == 1:
                with p_dfb.reserve() as blk:
                    ttl.copy(pipe, blk).wait()
            else:
                with q_dfb.reserve() as blk:
                    ttl.copy(pipe, blk).wait()

        net.if_src(send)
        net.if_dst(receive)

    @ttl.datamovement()
    def write():
        nx, _ = ttl.node(dims=2)
        if nx == 1:
            with p_dfb.wait() as blk:
                ttl.copy(blk, y[0, 0]).wait()
        if nx == 2:
            with q_dfb.wait() as blk:
                ttl.copy(blk, y[0, 1]).wait()


s_host = torch.randn(32, 32)
s = ttnn.from_torch(s_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
fan_out(s, y)
assert torch.equal(ttnn.to_torch(y), torch.cat([s_host, s_host], dim=1))
print("pipe_multicast_two_buffers: OK")
