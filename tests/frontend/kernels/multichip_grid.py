"""A 3-D (multi-chip) grid: the seed's core(dims=) and grid_size(dims=) flatten the highest dims (the
core reads all three coordinates and folds the last two; 1.1.6's ttl.node folds the first ones)."""
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(2, 2, 2))
def stamp(y):
    y_cb = ttl.make_circular_buffer_like(y, shape=(1, 1), buffer_factor=2)
    # CHECK: program @stamp grid=2x2x2

    @ttl.compute()
    def fill():
        x, yz = ttl.core(dims=2)  # (x, 2 * y + z)
        # CHECK: ttl.core dims=3
        # CHECK: arith.binary op=mul, %core1, 2
        gx, gyz = ttl.grid_size()  # (2, 4): folded
        # CHECK-NOT: grid_size
        with y_cb.reserve() as blk:
            blk.store(ttl.block.fill(float(x * gyz + yz), shape=(1, 1)))

    @ttl.datamovement()
    def write():
        flat = ttl.core(dims=1)  # 4 * x + 2 * y + z
        with y_cb.wait() as blk:
            ttl.copy(blk, y[0, flat]).wait()

    return ttl.Program(fill, write)(y)


y = ttnn.zeros((32, 32 * 8), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
stamp(y)
got = ttnn.to_torch(y)[0, ::32]
assert torch.equal(got, torch.arange(8, dtype=torch.float32)), got
