"""Issue 8 item 1: a user variable named like a front-end temporary.

``t_2`` is also the mangled name of the temporary ``%t.2``, and the two registers merge. Python
computes 313; expected: 313 stored into y (and printed) at every level; today: 100.
"""

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def kern(y):
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.compute()
    def compute():
        n = ttl.node(dims=1)
        t_1 = 4
        t_2 = 28
        for i in range(3):
            t_2 = t_2 + (n + 2) * (n + 3) * t_1 + i
        print(t_2 * 3 + t_1)
        with y_dfb.reserve() as blk:
            blk.store(ttl.block.fill(t_2 * 3 + t_1, shape=(1, 1)))

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


y = ttnn.zeros((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(y)
