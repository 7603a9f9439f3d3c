"""``print`` of a block (its shape, format and first values) and of a dataflow buffer (its shape,
size and state), next to strings and numbers, in the order the threads print them."""
import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def show(x, y):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def negate():
        with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            y_blk.store(-x_blk)
            print("negated:", y_blk)

    @ttl.datamovement()
    def read():
        print("before:", x_dfb)
        with x_dfb.reserve() as blk:
            ttl.copy(x[0, 0], blk).wait()
        print("after:", x_dfb)

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


x = ttnn.from_torch(torch.arange(32 * 32, dtype=torch.float32).reshape(32, 32), dtype=ttnn.float32,
                    layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
show(x, y)
assert torch.equal(ttnn.to_torch(y), -ttnn.to_torch(x))
