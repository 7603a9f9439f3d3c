"""Published 1.1.6 pipe spellings: positional ttl.Pipe(src, dst) whose dst holds a slice is a
multicast; PipeNet.is_src() / is_dst() / is_active() pick each node's role."""
import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 4))
def broadcast_first(a, y):
    net = ttl.PipeNet([ttl.Pipe((0, 0), (0, slice(1, 4)))])
    dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def mover():
        _, row = ttl.node(dims=2)
        if net.is_src():
            with dfb.reserve() as blk:
                ttl.copy(a[0, 0], blk).wait()

                def send(pipe):
                    ttl.copy(blk, pipe).wait()
                net.if_src(send)
        if net.is_dst():
            with dfb.reserve() as blk:
                def receive(pipe):
                    ttl.copy(pipe, blk).wait()
                net.if_dst(receive)
        if net.is_active():
            with dfb.wait() as blk:
                ttl.copy(blk, y[0, row]).wait()

    @ttl.compute()
    def idle():
        pass

    @ttl.datamovement()
    def idle_dm():
        pass


a = ttnn.from_torch(torch.full((32, 32), 3.0), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 128), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
broadcast_first(a, y)
assert (ttnn.to_torch(y) == 3).all()
