"""The pipe identities handed to ``if_src`` / ``if_dst``: ``.dst`` on the sender, ``.src`` on the
receiver.

Three nodes in a row; node 0 sends to nodes 1 and 2 over two unicast pipes. For each pipe the
sender sends the tile of its destination's column (``pipe.dst``) and writes it to column 0 of the
output too (so the last one sent stays there); each receiver writes what it got into the
output's column that is its own column plus the sender's (``pipe.src``).
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(3, 1))
def identity_kernel(s: ttnn.Tensor, got: ttnn.Tensor):
    net = ttl.PipeNet([ttl.Pipe((0, 0), (1, 0)), ttl.Pipe((0, 0), (2, 0))])
    s_dfb = ttl.make_dataflow_buffer_like(s, shape=(1, 1), block_count=1)
    g_dfb = ttl.make_dataflow_buffer_like(got, shape=(1, 1), block_count=1)

    @ttl.compute()
    def forward():
        col, _ = ttl.node(dims=2)
        for _ in range(2 if col == 0 else 1):
            with s_dfb.wait() as s_blk, g_dfb.reserve() as g_blk:
                g_blk.store(s_blk)

    @ttl.datamovement()
    def move():
        def send(pipe):
            dst_col, _ = pipe.dst
            with s_dfb.reserve() as blk:
                ttl.copy(s[0, dst_col], blk).wait()
                ttl.copy(blk, pipe).wait()

        def receive(pipe):
            with s_dfb.reserve() as blk:
                ttl.copy(pipe, blk).wait()
            src_col, _ = pipe.src
            with g_dfb.wait() as blk:
                ttl.copy(blk, got[0, col + src_col]).wait()

        col, _ = ttl.node(dims=2)
        net.if_src(send)
        net.if_dst(receive)

    @ttl.datamovement()
    def write():
        col, _ = ttl.node(dims=2)
        if col == 0:
            for _ in range(2):
                with g_dfb.wait() as blk:
                    ttl.copy(blk, got[0, 0]).wait()


device = ttnn.open_device(device_id=0)
s_host = bf16_exact((32, 96), seed=28, step=0.25)
s = ttnn.from_torch(s_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
got = ttnn.from_torch(torch.zeros(32, 96), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
identity_kernel(s, got)
expected = torch.cat([s_host[:, 64:], s_host[:, 32:]], dim=1)
assert torch.equal(ttnn.to_torch(got).float(), expected)
save_outputs(got=got)
ttnn.close_device(device)
