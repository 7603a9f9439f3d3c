"""Two nodes swap a tile over two unicast pipes, each sending before it receives. Buffered pipes
(the language's) run it: each send lands in the other's landing slot and completes. Landed in
place, each send would wait for the other node's receive, which comes after that node's own
send: the direct-landing proof must refuse it (sim/language/direct_landing.py)."""
import torch

import ttl
import ttnn


@ttl.operation(grid=(2, 1))
def swap(s, y):
    net = ttl.PipeNet([ttl.Pipe(src=(0, 0), dst=(1, 0)), ttl.Pipe(src=(1, 0), dst=(0, 0))])
    s_dfb = ttl.make_dataflow_buffer_like(s, shape=(1, 1), block_count=2)
    r_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def idle():
        pass

    @ttl.datamovement()
    def move():
        nx, _ = ttl.node(dims=2)
        with s_dfb.reserve() as blk:
            ttl.copy(s[0, nx], blk).wait()

        def send(pipe):
            with s_dfb.wait() as blk:
                ttl.copy(blk, pipe).wait()

        def receive(pipe):
            with r_dfb.reserve() as blk:
                ttl.copy(pipe, blk).wait()

        net.if_src(send)
        net.if_dst(receive)

    @ttl.datamovement()
    def write():
        nx, _ = ttl.node(dims=2)
        with r_dfb.wait() as blk:
            ttl.copy(blk, y[0, nx]).wait()


s_host = torch.randn(32, 64)
s = ttnn.from_torch(s_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
swap(s, y)
got = ttnn.to_torch(y)
assert torch.equal(got, torch.cat([s_host[:, 32:], s_host[:, :32]], dim=1))
print("pipe_swap_send_first: OK")
