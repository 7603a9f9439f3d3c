"""A ``ttl.PipeNet`` built outside the operation and captured by it (issue 22, defect 5a).

The net is built at module scope (``module``) or in the helper that makes the operation
(``helper``); the threads capture it from the helper's scope. Node 0 sends a tile to node 1, which adds 1; in the sending function the
thread asserts ``net.is_src() is True``, in the receiving one ``net.is_dst() is True``.

Variants: module helper
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

WHERE = sys.argv[1]
MODULE_NET = ttl.PipeNet([ttl.Pipe(src=(0, 0), dst=(1, 0))])


def make_operation(net=None):
    if net is None:
        net = ttl.PipeNet([ttl.Pipe(src=(0, 0), dst=(1, 0))])

    @ttl.operation(grid=(2, 1))
    def forward(s: ttnn.Tensor, y: ttnn.Tensor):
        s_dfb = ttl.make_dataflow_buffer_like(s, shape=(1, 1), block_count=2)
        y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

        @ttl.compute()
        def add_one():
            col, _ = ttl.node(dims=2)
            if col == 1:
                with s_dfb.wait() as blk, y_dfb.reserve() as out:
                    out.store(blk + ttl.block.fill(1.0, shape=(1, 1)))

        @ttl.datamovement()
        def move():
            def send(pipe):
                assert net.is_src() is True
                with s_dfb.reserve() as blk:
                    ttl.copy(s[0, 0], blk).wait()
                with s_dfb.wait() as blk:
                    ttl.copy(blk, pipe).wait()

            def receive(pipe):
                assert net.is_dst() is True
                with s_dfb.reserve() as blk:
                    ttl.copy(pipe, blk).wait()

            net.if_src(send)
            net.if_dst(receive)

        @ttl.datamovement()
        def write():
            col, _ = ttl.node(dims=2)
            if col == 1:
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[0, 0]).wait()

    return forward


forward = make_operation(MODULE_NET if WHERE == "module" else None)

device = ttnn.open_device(device_id=0)
s_host = bf16_exact((32, 32), seed=31, step=0.25)
s = ttnn.from_torch(s_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
forward(s, y)
assert torch.equal(ttnn.to_torch(y).float(), s_host + 1.0)
save_outputs(y=y)
ttnn.close_device(device)
