"""A multicast pipe in the 1.1.6 spellings: node 0 reads one tile and sends it to nodes 1 and 2,
which add it to their own tile; node 0 adds it too.

``positional``: ``ttl.Pipe((0, 0), (slice(1, 3), 0))`` (issue 7 item 4); ``keyword``:
``ttl.Pipe(src=..., dst=...)`` with the same slice; ``unicasts``: one pipe per destination node,
``ttl.Pipe(src=0, dst=i)`` with linear node indices. All in a ``ttl.PipeNet`` used through
``if_src`` / ``if_dst``.

Variants: positional keyword unicasts
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

FORM = sys.argv[1]
NODES = 3


@ttl.operation(grid=(NODES, 1))
def multicast_kernel(s: ttnn.Tensor, x: ttnn.Tensor, y: ttnn.Tensor):
    if FORM == "positional":
        pipes = [ttl.Pipe((0, 0), (slice(1, NODES), 0))]
    elif FORM == "keyword":
        pipes = [ttl.Pipe(src=(0, 0), dst=(slice(1, NODES), 0))]
    else:
        pipes = [ttl.Pipe(src=0, dst=i) for i in range(1, NODES)]
    net = ttl.PipeNet(pipes)
    s_dfb = ttl.make_dataflow_buffer_like(s, shape=(1, 1), block_count=1)
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.compute()
    def add():
        with s_dfb.wait() as s_blk, x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            y_blk.store(x_blk + s_blk)

    @ttl.datamovement()
    def read():
        col, _ = ttl.node(dims=2)
        with s_dfb.reserve() as s_blk:
            def send(pipe):
                ttl.copy(s_blk, pipe).wait()

            def receive(pipe):
                ttl.copy(pipe, s_blk).wait()

            if col == 0:
                ttl.copy(s[0, 0], s_blk).wait()
            net.if_src(send)
            net.if_dst(receive)
        with x_dfb.reserve() as x_blk:
            ttl.copy(x[0, col], x_blk).wait()

    @ttl.datamovement()
    def write():
        col, _ = ttl.node(dims=2)
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0, col]).wait()


device = ttnn.open_device(device_id=0)
s_host = bf16_exact((32, 32), seed=25, step=0.25)
x_host = bf16_exact((32, 32 * NODES), seed=26, step=0.25)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


s, x, y = to_device(s_host), to_device(x_host), to_device(torch.zeros(32, 32 * NODES))
multicast_kernel(s, x, y)
assert torch.equal(ttnn.to_torch(y).float(), x_host + s_host.repeat(1, NODES))
save_outputs(y=y)
ttnn.close_device(device)
