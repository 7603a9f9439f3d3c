"""Pipes named with linear node indices, as 1.1.6 programs write them (``ttl.Pipe(src=n, dst=0)``
on a 2-D grid), and what ``if_src`` / ``if_dst`` functions read of them: ``pipe.dst`` on the
sender, ``pipe.src`` (that int) on the receiver; the host sees ``Pipe.src`` / ``Pipe.dst`` as
written."""
import torch

import ttl
import ttnn

X, Y = 2, 2
NODES = X * Y


@ttl.operation(grid=(X, Y))
def gather(s, y):
    pipes = [ttl.Pipe(src=n, dst=0) for n in range(1, NODES)]
    assert [p.src for p in pipes] == [1, 2, 3] and pipes[0].dst == 0
    to_first = ttl.PipeNet(pipes)
    s_dfb = ttl.make_dataflow_buffer_like(s, shape=(1, 1), block_count=2)
    g_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def label():
        me = ttl.node(dims=1)
        with s_dfb.wait() as blk, g_dfb.reserve() as out:
            out.store(blk + ttl.block.fill(float(me * 100), shape=(1, 1)))
        if me == 0:
            for _ in range(NODES - 1):
                with s_dfb.wait() as blk, g_dfb.reserve() as out:
                    out.store(blk)

    @ttl.datamovement()
    def move():
        me = ttl.node(dims=1)
        with s_dfb.reserve() as blk:
            ttl.copy(s[0, 0], blk).wait()

        def send(pipe):  # every other node sends its labelled tile to node 0, which pipe.dst names
            if pipe.dst == 0:
                with g_dfb.wait() as blk, s_dfb.reserve() as back:
                    ttl.copy(blk, back).wait()
                with s_dfb.wait() as back:
                    ttl.copy(back, pipe).wait()

        def receive(pipe):  # node 0 files each tile under its sender, pipe.src
            with s_dfb.reserve() as blk:
                ttl.copy(pipe, blk).wait()
            with g_dfb.wait() as blk:
                ttl.copy(blk, y[0, pipe.src]).wait()

        if me == 0:  # its own labelled tile comes first
            with g_dfb.wait() as blk:
                ttl.copy(blk, y[0, 0]).wait()
        to_first.if_src(send)
        to_first.if_dst(receive)

    @ttl.datamovement()
    def idle():
        pass


s_host = torch.arange(32 * 32, dtype=torch.float32).reshape(32, 32)
s = ttnn.from_torch(s_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 32 * NODES), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
gather(s, y)
assert torch.equal(ttnn.to_torch(y), torch.cat([s_host + 100 * n for n in range(NODES)], dim=1))
