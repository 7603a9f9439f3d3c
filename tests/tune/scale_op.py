"""Small tuned operations for the autotuner's tests: ``y = x * 2`` in blocks of ``W`` tiles.

``scale`` searches W and COUNT (the input buffer's block count). Some candidates are bad on
purpose: W=3 does not divide the 8 tile columns (the kernel's assert prunes it), W=0 divides by
zero in kernel scope (a crashing candidate), COUNT=300 with W >= 4 overflows L1 (E0401).
``scale_checked`` has a candidate that skips the last block: it is the fastest and it is wrong,
so ``verify=True`` must reject it.
"""

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
FACTOR = 2.0


def doubled(x: ttnn.Tensor, y: ttnn.Tensor) -> dict:
    return {"y": ttnn.to_torch(x).float() * FACTOR}


@ttl.autotune(configs=ttl.SearchSpace(W=[0, 1, 2, 3, 4, 8], COUNT=[1, 2, 300]), key=["x"], arch="n150")
@ttl.operation(grid=(2, 1))
def scale(x: ttnn.Tensor, y: ttnn.Tensor, *, W: int, COUNT: int):
    cols = x.shape[1] // TILE
    assert cols % W == 0, "W must divide the columns"
    blocks = cols // W
    rows = x.shape[0] // TILE // 2
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, W), block_count=COUNT)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, W), block_count=2)

    @ttl.datamovement()
    def load():
        r0 = ttl.node(dims=1) * rows
        for r in range(rows):
            for c in range(blocks):
                with x_dfb.reserve() as blk:
                    ttl.copy(x[r0 + r:r0 + r + 1, c * W:(c + 1) * W], blk).wait()

    @ttl.compute()
    def work():
        for _ in range(rows * blocks):
            with x_dfb.wait() as a, y_dfb.reserve() as b:
                b.store(a * FACTOR)

    @ttl.datamovement()
    def save():
        r0 = ttl.node(dims=1) * rows
        for r in range(rows):
            for c in range(blocks):
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[r0 + r:r0 + r + 1, c * W:(c + 1) * W]).wait()


@ttl.autotune(configs=[ttl.Config(LOSE=False), ttl.Config(LOSE=True)], key=["x"], arch="n150", verify=True,
              reference=doubled)
@ttl.operation(grid=(1, 1))
def scale_checked(x: ttnn.Tensor, y: ttnn.Tensor, *, LOSE: bool):
    tiles = x.shape[1] // TILE - (1 if LOSE else 0)
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def load():
        for c in range(tiles):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0:1, c:c + 1], blk).wait()

    @ttl.compute()
    def work():
        for _ in range(tiles):
            with x_dfb.wait() as a, y_dfb.reserve() as b:
                b.store(a * FACTOR)

    @ttl.datamovement()
    def save():
        for c in range(tiles):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[0:1, c:c + 1]).wait()


@ttl.autotune(configs=[ttl.Config(W=3), ttl.Config(W=0)], key=["x"], arch="n150")
@ttl.operation(grid=(1, 1))
def unbuildable(x: ttnn.Tensor, y: ttnn.Tensor, *, W: int):
    """Every candidate is pruned (W=3) or crashes (W=0): tuning it is an error."""
    assert x.shape[1] // TILE % W == 0, "W must divide the columns"
