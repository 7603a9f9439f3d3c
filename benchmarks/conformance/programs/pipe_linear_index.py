"""A unicast pipe between linear node indices on a 2x2 grid: ``ttl.Pipe(src=0, dst=1)``.

Node 1 (by ``ttl.node(dims=1)`` numbering) receives a tile from node 0 and writes it, doubled,
at its own 2-D coordinates, ``ttl.node()``, so the output shows which node the linear index 1
named (issue 7 item 6: the published simulator numbers ``(col, row)`` as ``col * rows + row``).
Node 0 also echoes the tile it sent into a second output.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(2, 2))
def linear_pipe(s: ttnn.Tensor, y: ttnn.Tensor, echo: ttnn.Tensor):
    net = ttl.PipeNet([ttl.Pipe(src=0, dst=1)])
    s_dfb = ttl.make_dataflow_buffer_like(s, shape=(1, 1), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.compute()
    def forward():
        if ttl.node(dims=1) == 1:
            with s_dfb.wait() as s_blk, y_dfb.reserve() as y_blk:
                y_blk.store(s_blk + s_blk)

    @ttl.datamovement()
    def move():
        def send(pipe):
            with s_dfb.reserve() as blk:
                ttl.copy(s[0, 0], blk).wait()
                ttl.copy(blk, pipe).wait()
            with s_dfb.wait() as blk:
                ttl.copy(blk, echo[0, 0]).wait()

        def receive(pipe):
            with s_dfb.reserve() as blk:
                ttl.copy(pipe, blk).wait()

        net.if_src(send)
        net.if_dst(receive)

    @ttl.datamovement()
    def write():
        if ttl.node(dims=1) == 1:
            col, row = ttl.node()
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[row, col]).wait()


device = ttnn.open_device(device_id=0)
s_host = bf16_exact((32, 32), seed=49, step=0.25)
s = ttnn.from_torch(s_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
echo = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
linear_pipe(s, y, echo)
assert torch.equal(ttnn.to_torch(echo).float(), s_host)
assert torch.count_nonzero(ttnn.to_torch(y).float()) == torch.count_nonzero(s_host)
save_outputs(y=y, echo=echo)
ttnn.close_device(device)
