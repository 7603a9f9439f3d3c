"""slice() objects (and tuples of them) kept in variables index tensors, in kernel scope and threads."""
import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def copy_columns(a, y):
    dfb = ttl.make_dataflow_buffer_like(a, shape=(2, 1), block_count=2)
    rows = slice(0, 2)

    @ttl.datamovement()
    def reader():
        for c in range(2):
            where = (rows, slice(c, c + 1))
            with dfb.reserve() as blk:
                ttl.copy(a[where], blk).wait()

    @ttl.datamovement()
    def writer():
        for c in range(2):
            cols = slice(c, c + 1)
            with dfb.wait() as blk:
                ttl.copy(blk, y[rows, cols]).wait()

    @ttl.compute()
    def idle():
        pass


torch.manual_seed(1)
a = ttnn.from_torch(torch.randn(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
copy_columns(a, y)
assert torch.equal(ttnn.to_torch(y), ttnn.to_torch(a))
