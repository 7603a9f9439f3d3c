"""A script in the published spelling (``import ttl``, ``import ttnn``) that tunes an operation.

``tilecraft tune`` serves those names from tilecraft; the processes that evaluate candidates (Dask
workers) run this text too, so they must serve them as well.
"""

import ttl
import ttnn

TILE = 32


@ttl.autotune(configs=ttl.SearchSpace(W=[1, 2, 3, 4]), key=["x"], arch="n150")
@ttl.operation(grid=(2, 1))
def doubled(x: ttnn.Tensor, y: ttnn.Tensor, *, W: int):
    cols = x.shape[1] // TILE
    assert cols % W == 0, "W must divide the columns"
    rows = x.shape[0] // TILE // 2
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, W), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, W), block_count=2)

    @ttl.datamovement()
    def load():
        r0 = ttl.node(dims=1) * rows
        for r in range(rows):
            for c in range(cols // W):
                with x_dfb.reserve() as blk:
                    ttl.copy(x[r0 + r:r0 + r + 1, c * W:(c + 1) * W], blk).wait()

    @ttl.compute()
    def work():
        for _ in range(rows * (cols // W)):
            with x_dfb.wait() as a, y_dfb.reserve() as b:
                b.store(a * 2.0)

    @ttl.datamovement()
    def save():
        r0 = ttl.node(dims=1) * rows
        for r in range(rows):
            for c in range(cols // W):
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[r0 + r:r0 + r + 1, c * W:(c + 1) * W]).wait()


x = ttnn.zeros((128, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((128, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
doubled(x, y)
