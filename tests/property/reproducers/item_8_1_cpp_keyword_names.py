"""Issue 8 item 1: locals named like C++ keywords (``int``, ``new``, ``auto``, ``char``, ``delete``).

The simulator computes what Python does (y[0, 0] = 9), but the emitted kernels declare
``int32_t int = core0;`` and do not compile. Expected: ``tilecraft emit`` writes kernels that
pass the header check.
"""

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def kern(y):
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.compute()
    def compute():
        int = ttl.node(dims=1)
        new = int + 3
        auto = 0
        for char in range(3):
            auto = auto + new * char
        with y_dfb.reserve() as blk:
            blk.store(ttl.block.fill(auto, shape=(1, 1)))

    @ttl.datamovement()
    def writer():
        delete = ttl.node(dims=1)
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[delete, 0]).wait()


y = ttnn.zeros((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(y)
assert ttnn.to_torch(y)[0, 0].item() == 9.0
