"""The seed specification's block expression: y = sqrt(a**2 + b**2), tile by tile.

Shows the seed spelling end to end on one core: ``@ttl.kernel`` returning
``ttl.Program(compute, read, write)(a, b, y)``, ``ttl.make_circular_buffer_like``
with the default ``buffer_factor``, a reader that ``ttl.copy``-s tensor slices into
blocks, a compute thread that stores the fused expression
``ttl.math.sqrt(a_blk ** 2 + b_blk ** 2)``, and a writer that copies the result back.
The inputs are float32, so the golden is checked tightly.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32


@ttl.kernel(grid=(1, 1))
def hypot(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor) -> None:
    rows = a.shape[0] // TILE
    cols = a.shape[1] // TILE
    a_cb = ttl.make_circular_buffer_like(a, shape=(1, 1))
    b_cb = ttl.make_circular_buffer_like(b, shape=(1, 1))
    y_cb = ttl.make_circular_buffer_like(y, shape=(1, 1))

    @ttl.datamovement()
    def read():
        for r in range(rows):
            for c in range(cols):
                with a_cb.reserve() as a_blk, b_cb.reserve() as b_blk:
                    a_xf = ttl.copy(a[r:(r + 1), c:(c + 1)], a_blk)
                    b_xf = ttl.copy(b[r:(r + 1), c:(c + 1)], b_blk)
                    a_xf.wait()
                    b_xf.wait()

    @ttl.compute()
    def compute():
        for _ in range(rows * cols):
            a_blk = a_cb.wait()
            b_blk = b_cb.wait()
            y_blk = y_cb.reserve()
            # sub-expressions may be named; nothing is rounded until the store
            a_squared = a_blk ** 2
            b_squared = b_blk ** 2
            y_blk.store(ttl.math.sqrt(a_squared + b_squared))
            # without `with`, release explicitly: pop what was waited, push what was reserved
            a_cb.pop()
            b_cb.pop()
            y_cb.push()

    @ttl.datamovement()
    def write():
        for r in range(rows):
            for c in range(cols):
                with y_cb.wait() as y_blk:
                    y_xf = ttl.copy(y_blk, y[r:(r + 1), c:(c + 1)])
                    y_xf.wait()

    return ttl.Program(compute, read, write)(a, b, y)


torch.manual_seed(0)
shape = (64, 96)
a_host = torch.randn(shape)
b_host = torch.randn(shape)

a = ttnn.from_torch(a_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(b_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros(shape, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)

hypot(a, b, y)

got = ttnn.to_torch(y)
want = torch.hypot(a_host, b_host)
assert torch.allclose(got, want, rtol=1e-5, atol=1e-6), (got - want).abs().max()
print("hypot_block_expression: OK")
