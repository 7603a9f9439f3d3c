"""Planted for defect 6 (shared ready semaphore), kept as its regression test: core (0, 0) sends
its tile over two unicast pipes of one net, to (1, 0) and to (2, 0); each receiver stores what it
got.

The emitter once gave the whole net one "ready" semaphore on the sender, which every receiver
incremented and the sender waited on with an exact count (noc_semaphore_wait(ptr, 1)) before each
send: the second receiver's increment could arrive first and overshoot, and the second wait then
never saw its count. Each pipe a core sends now has a ready semaphore of its own
(tilecraft/ir/pipe_protocol.py: ready_counters), and the emitted program runs as the language
level does.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(3, 1))
def fan_out(a: ttnn.Tensor, y: ttnn.Tensor) -> None:
    pipes = [ttl.Pipe(src_core=(0, 0), dst_core=(1, 0)), ttl.Pipe(src_core=(0, 0), dst_core=(2, 0))]
    a_cb = ttl.make_circular_buffer_like(a, shape=(1, 1))
    y_cb = ttl.make_circular_buffer_like(y, shape=(1, 1))

    @ttl.datamovement()
    def read():
        cx, cy = ttl.core()

        def send(pipe):
            with a_cb.reserve() as blk:
                ttl.copy(a[0, 0], blk).wait()
            with a_cb.wait() as blk:
                ttl.copy(blk, pipe).wait()

        def receive(pipe):
            with y_cb.reserve() as blk:
                ttl.copy(pipe, blk).wait()

        ttl.if_pipe_src(pipes, send)
        ttl.if_pipe_dst(pipes, receive)

    @ttl.compute()
    def compute():
        pass

    @ttl.datamovement()
    def write():
        cx, cy = ttl.core()
        if cx > 0:
            with y_cb.wait() as blk:
                ttl.copy(blk, y[0, cx - 1]).wait()

    return ttl.Program(compute, read, write)(a, y)


a = ttnn.from_torch(torch.randn(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
fan_out(a, y)
assert torch.equal(ttnn.to_torch(y), ttnn.to_torch(a).repeat(1, 2))
