"""Issue 7 item 1: the published 1.1.6 accumulator idiom.

``acc = ttl.block.fill(0, shape=...)``, ``acc += a @ b`` in the K loop, ``out.store(acc)``:
y = a @ b over two K steps. Expected: y matches torch; today: an internal error.
"""

import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def matmul(a, b, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        for k in range(2):
            with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                ttl.copy(a[0, k], a_blk).wait()
                ttl.copy(b[k, 0], b_blk).wait()

    @ttl.compute()
    def compute():
        acc = ttl.block.fill(0, shape=(1, 1))
        for _ in range(2):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                acc += a_blk @ b_blk
        with y_dfb.reserve() as y_blk:
            y_blk.store(acc)

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0, 0]).wait()


torch.manual_seed(0)
a_host, b_host = torch.randn(32, 64), torch.randn(64, 32)
a = ttnn.from_torch(a_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(b_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
matmul(a, b, y)
assert torch.allclose(ttnn.to_torch(y), a_host @ b_host, rtol=1e-4, atol=1e-4)
print("accumulator value: OK")
