"""A pipe between 1-D coordinates on a 2-D grid: ``ttl.Pipe((0,), (slice(1, 4),))`` names nodes by
their linear index (the 1.1.6 matmul_1d idiom), here on a 4x1 grid where the linear index is the
column, so that only the 1-D form is tested (not the numbering of issue 7 item 6).

Node 0 sends one tile to nodes 1 to 3; every node writes what it holds, plus its column, into its
own tile of the output.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(4, 1))
def linear_range(s: ttnn.Tensor, y: ttnn.Tensor):
    net = ttl.PipeNet([ttl.Pipe((0,), (slice(1, 4),))])
    s_dfb = ttl.make_dataflow_buffer_like(s, shape=(1, 1), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.compute()
    def label():
        col, _ = ttl.node(dims=2)
        with s_dfb.wait() as s_blk, y_dfb.reserve() as y_blk:
            y_blk.store(s_blk + ttl.block.fill(col, shape=(1, 1)))

    @ttl.datamovement()
    def move():
        with s_dfb.reserve() as blk:
            def send(pipe):
                ttl.copy(s[0, 0], blk).wait()
                ttl.copy(blk, pipe).wait()

            def receive(pipe):
                ttl.copy(pipe, blk).wait()

            net.if_src(send)
            net.if_dst(receive)

    @ttl.datamovement()
    def write():
        col, _ = ttl.node(dims=2)
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, col]).wait()


device = ttnn.open_device(device_id=0)
s_host = bf16_exact((32, 32), seed=58, step=0.25)
s = ttnn.from_torch(s_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 128), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
linear_range(s, y)
assert torch.equal(ttnn.to_torch(y).float(), torch.cat([s_host + c for c in range(4)], dim=1))
save_outputs(y=y)
ttnn.close_device(device)
