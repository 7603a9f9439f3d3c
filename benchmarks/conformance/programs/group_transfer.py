"""``ttl.GroupTransfer``: copies collected with ``add`` and waited together with ``wait_all``.

For each of three tiles the reader fills one block of each input with one group of two copies;
the writer waits for its single write through a group too. Each handle is also waited by name
after ``wait_all`` (a no-op then): on Python 3.11 the published simulator requires that, as it
can only inject the waits itself on 3.12 and later.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

TILES = 3


@ttl.operation(grid=(1, 1))
def group_kernel(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def fused():
        for _ in range(TILES):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
                y_blk.store(a_blk - a_blk * b_blk)

    @ttl.datamovement()
    def read():
        for t in range(TILES):
            with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                group = ttl.GroupTransfer()
                tx_a = ttl.copy(a[0, t], a_blk)
                tx_b = ttl.copy(b[0, t], b_blk)
                group.add(tx_a)
                group.add(tx_b)
                group.wait_all()
                tx_a.wait()
                tx_b.wait()

    @ttl.datamovement()
    def write():
        for t in range(TILES):
            with y_dfb.wait() as blk:
                group = ttl.GroupTransfer()
                tx = ttl.copy(blk, y[0, t])
                group.add(tx)
                group.wait_all()
                tx.wait()


device = ttnn.open_device(device_id=0)
a_host = bf16_exact((32, 32 * TILES), seed=37, step=0.125)
b_host = bf16_exact((32, 32 * TILES), seed=38, step=0.125)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


a, b, y = to_device(a_host), to_device(b_host), to_device(torch.zeros(32, 32 * TILES))
group_kernel(a, b, y)
assert torch.allclose(ttnn.to_torch(y).float(), a_host - a_host * b_host, rtol=1e-2, atol=1e-2)
save_outputs(y=y)
ttnn.close_device(device)
