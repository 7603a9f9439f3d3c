"""``PipeNet.is_active()``, ``is_src()`` and ``is_dst()`` in the compute thread (issue 7 item 5).

Three nodes in a row; node 0 sends one tile to node 1 over a unicast pipe, node 2 takes no part.
Every node stores 1 in its own output tile where the query holds, else 0 (and node 1 adds the
tile it received, so that the pipe carries something).

Variants: is_active is_src is_dst
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

QUERY = sys.argv[1]


@ttl.operation(grid=(3, 1))
def query_kernel(s: ttnn.Tensor, roles: ttnn.Tensor):
    net = ttl.PipeNet([ttl.Pipe((0, 0), (1, 0))])
    s_dfb = ttl.make_dataflow_buffer_like(s, shape=(1, 1), block_count=1)
    r_dfb = ttl.make_dataflow_buffer_like(roles, shape=(1, 1), block_count=1)

    @ttl.compute()
    def describe():
        flag = 0
        if QUERY == "is_active":
            if net.is_active():
                flag = 1
        elif QUERY == "is_src":
            if net.is_src():
                flag = 1
        elif net.is_dst():
            flag = 1
        col, _ = ttl.node(dims=2)
        with r_dfb.reserve() as blk:
            if col == 1:
                with s_dfb.wait() as s_blk:
                    blk.store(s_blk + ttl.block.fill(flag, shape=(1, 1)))
            else:
                blk.store(ttl.block.fill(flag, shape=(1, 1)))

    @ttl.datamovement()
    def move():
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
        col, _ = ttl.node(dims=2)
        with r_dfb.wait() as blk:
            ttl.copy(blk, roles[0, col]).wait()


device = ttnn.open_device(device_id=0)
s_host = bf16_exact((32, 32), seed=27, step=0.25)
s = ttnn.from_torch(s_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
roles = ttnn.from_torch(torch.zeros(32, 96), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
query_kernel(s, roles)
flags = {"is_active": [1.0, 1.0, 0.0], "is_src": [1.0, 0.0, 0.0], "is_dst": [0.0, 1.0, 0.0]}[QUERY]
result = ttnn.to_torch(roles).float()
expected = torch.cat([torch.full((32, 32), flags[0]), s_host + flags[1], torch.full((32, 32), flags[2])], dim=1)
assert torch.equal(result, expected)
save_outputs(roles=roles)
ttnn.close_device(device)
