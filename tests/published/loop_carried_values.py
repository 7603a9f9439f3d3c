"""Values a runtime loop carries from one iteration into the next (issue 22, defect 1).

``acc = dfb.wait()`` followed by ``for _ in range(4): acc = acc + acc`` stores 16 times the block, as
in Python and the published simulator (it once stored 2 times: the body, compiled once, read the
waited block on every iteration). The same holds for a helper's parameter reassigned in its loop
(a block and an integer), for nested loops, for a ``while`` loop, and for a branch that reassigns
the block on some iterations only; a loop that runs no iteration leaves the waited block in the name."""
import torch

import ttl
import ttnn


def doubled(blk, times):
    for _ in range(times):
        blk = blk + blk
    return blk


def doubled_count(n, times):
    for _ in range(times):
        n = n + n
    return n


@ttl.operation(grid=(1, 1))
def carry(x, y):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def compute():
        _, node = ttl.node(dims=2)
        none = node - node  # 0, known at run time only
        acc = x_dfb.wait()
        for _ in range(4):
            acc = acc + acc
        with y_dfb.reserve() as out:
            out.store(acc)  # 16 x
        with x_dfb.wait() as blk, y_dfb.reserve() as out:
            out.store(doubled(blk, 3))  # 8 x
        with x_dfb.wait() as blk, y_dfb.reserve() as out:
            n = doubled_count(none + 1, 2)
            out.store(blk * ttl.block.fill(float(n), shape=(1, 1)))  # 4 x
        acc = x_dfb.wait()
        for _ in range(none):
            acc = acc * acc
        with y_dfb.reserve() as out:
            out.store(acc)  # x: the loop ran no iteration
        acc = x_dfb.wait()
        for i in range(2):
            k = 0
            while k < 2:
                acc = acc + acc
                k += 1
            if i == 1:
                acc = acc - ttl.block.fill(1.0, shape=(1, 1))
        with y_dfb.reserve() as out:
            out.store(acc)  # ((4 x) * 4) - 1

    @ttl.datamovement()
    def read():
        for col in range(5):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, col], blk).wait()

    @ttl.datamovement()
    def write():
        for col in range(5):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[0, col]).wait()


torch.manual_seed(22)
x_host = torch.randn(32, 5 * 32)
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 5 * 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
carry(x, y)
tiles = x_host.split(32, dim=1)
expected = torch.cat([16 * tiles[0], 8 * tiles[1], 4 * tiles[2], tiles[3], 16 * tiles[4] - 1], dim=1)
assert torch.equal(ttnn.to_torch(y), expected), (ttnn.to_torch(y) - expected).abs().max()
