"""Constants of any kind compare at compile time in threads: strings (a helper's mode flag),
None, `in` a constant tuple; a runtime integer `in` a tuple is a chain of ==."""
import torch

import ttl
import ttnn


def combine(x, z, mode="add", scale=None):
    if mode == "add" and scale is None:
        return x + z
    return x * z


@ttl.operation(grid=(1, 4))
def kern(a, b, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def compute():
        _, row = ttl.node(dims=2)
        with a_dfb.wait() as x, b_dfb.wait() as z, y_dfb.reserve() as out:
            if row in (1, 3):
                out.store(combine(x, z, "mul"))
            else:
                out.store(combine(x, z))

    @ttl.datamovement()
    def reader():
        with a_dfb.reserve() as blk:
            ttl.copy(a[0, 0], blk).wait()
        with b_dfb.reserve() as blk:
            ttl.copy(b[0, 0], blk).wait()

    @ttl.datamovement()
    def writer():
        _, row = ttl.node(dims=2)
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, row]).wait()


a = ttnn.from_torch(torch.full((32, 32), 2.0), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(torch.full((32, 32), 5.0), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 128), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(a, b, y)
assert ttnn.to_torch(y)[0, ::32].tolist() == [7.0, 10.0, 7.0, 10.0]
