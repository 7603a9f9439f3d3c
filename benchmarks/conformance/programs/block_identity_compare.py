"""``a != b`` between two blocks is Python's identity test in 1.1.6 (blocks define no ``!=``), used
as ``x if x != y else y`` (issue 7 item 8): two different blocks compare unequal, so the
conditional picks ``a``.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(1, 1))
def pick_kernel(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=1)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.compute()
    def pick():
        with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
            chosen = a_blk if a_blk != b_blk else b_blk
            y_blk.store(chosen + b_blk)

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
            ttl.copy(a[0, 0], a_blk).wait()
            ttl.copy(b[0, 0], b_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0, 0]).wait()


device = ttnn.open_device(device_id=0)
a_host = bf16_exact((32, 32), seed=33, step=0.25)
b_host = bf16_exact((32, 32), seed=34, step=0.25)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


a, b, y = to_device(a_host), to_device(b_host), to_device(torch.zeros(32, 32))
pick_kernel(a, b, y)
assert torch.equal(ttnn.to_torch(y).float(), a_host + b_host)
save_outputs(y=y)
ttnn.close_device(device)
