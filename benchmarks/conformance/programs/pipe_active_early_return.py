"""The early exit of nodes outside a pipe net: ``if not net.is_active(): return`` at the top of
every thread (issue 7 item 5, and ``return`` before the end of a thread).

A 4x1 grid; node 0 sends a tile to node 1, nodes 2 and 3 return at once. Node 1 writes the tile
it received plus one to the output, node 0 the tile it sent plus one.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(4, 1))
def active_only(s: ttnn.Tensor, y: ttnn.Tensor):
    net = ttl.PipeNet([ttl.Pipe((0, 0), (1, 0))])
    s_dfb = ttl.make_dataflow_buffer_like(s, shape=(1, 1), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.compute()
    def increment():
        if not net.is_active():
            return
        with s_dfb.wait() as s_blk, y_dfb.reserve() as y_blk:
            y_blk.store(1.0 + s_blk)

    @ttl.datamovement()
    def move():
        if not net.is_active():
            return

        def send(pipe):
            with s_dfb.reserve() as blk:
                ttl.copy(s[0, 0], blk).wait()
                ttl.copy(blk, pipe).wait()

        def receive(pipe):
            with s_dfb.reserve() as blk:
                ttl.copy(pipe, blk).wait()

        net.if_src(send)
        net.if_dst(receive)

    @ttl.datamovement()
    def write():
        if not net.is_active():
            return
        col, _ = ttl.node(dims=2)
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, col]).wait()


device = ttnn.open_device(device_id=0)
s_host = bf16_exact((32, 32), seed=50, step=0.25)
s = ttnn.from_torch(s_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 128), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
active_only(s, y)
expected = torch.cat([s_host + 1, s_host + 1, torch.zeros(32, 64)], dim=1)
assert torch.equal(ttnn.to_torch(y).float(), expected)
save_outputs(y=y)
ttnn.close_device(device)
