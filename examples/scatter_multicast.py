"""The seed's scatter: core (x, 0) multicasts one block to the rest of its column.

``ttl.Pipe(src_core=(x, 0), dst_core_range=(slice(x, x + 1), slice(1, grid_y)))`` sends one
copy that lands on every core (x, 1) ... (x, grid_y - 1); the columns run concurrently. Row 0
reads the per-column scale tile ``s[0, x]`` from DRAM once and only sends; every other core
multiplies its own tile of ``a`` by the scale it received: y[r, x] = a[r, x] * s[0, x]
(tile coordinates, r = core row - 1).

The inputs are bfloat8_b (block floats: 16 values share an exponent); the golden is computed
from the values the device actually holds (``ttnn.to_torch`` of the inputs), and the product
is stored as bfloat16.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(3, 4))
def scale_columns(a: ttnn.Tensor, s: ttnn.Tensor, y: ttnn.Tensor) -> None:
    grid_x, grid_y = ttl.grid_size()
    pipes = [ttl.Pipe(src_core=(x, 0), dst_core_range=(slice(x, x + 1), slice(1, grid_y)))
             for x in range(grid_x)]

    s_cb = ttl.make_circular_buffer_like(s, shape=(1, 1))
    a_cb = ttl.make_circular_buffer_like(a, shape=(1, 1))
    y_cb = ttl.make_circular_buffer_like(y, shape=(1, 1))

    @ttl.datamovement()
    def read():
        cx, cy = ttl.core()

        def send(pipe):
            with s_cb.reserve() as blk:
                xf = ttl.copy(s[0, cx], blk)
                xf.wait()
            with s_cb.wait() as blk:
                xf = ttl.copy(blk, pipe)
                xf.wait()

        def receive(pipe):
            with s_cb.reserve() as blk:
                xf = ttl.copy(pipe, blk)
                xf.wait()

        ttl.if_pipe_src(pipes, send)
        ttl.if_pipe_dst(pipes, receive)

        if cy > 0:
            with a_cb.reserve() as blk:
                xf = ttl.copy(a[cy - 1, cx], blk)
                xf.wait()

    @ttl.compute()
    def compute():
        cx, cy = ttl.core()
        if cy > 0:
            with s_cb.wait() as s_blk, a_cb.wait() as a_blk, y_cb.reserve() as y_blk:
                y_blk.store(a_blk * s_blk)

    @ttl.datamovement()
    def write():
        cx, cy = ttl.core()
        if cy > 0:
            with y_cb.wait() as blk:
                xf = ttl.copy(blk, y[cy - 1, cx])
                xf.wait()

    return ttl.Program(compute, read, write)(a, s, y)


torch.manual_seed(3)
grid_x, grid_y = 3, 4
a = ttnn.from_torch(torch.randn((grid_y - 1) * 32, grid_x * 32), dtype=ttnn.bfloat8_b, layout=ttnn.TILE_LAYOUT)
s = ttnn.from_torch(torch.rand(32, grid_x * 32) + 0.5, dtype=ttnn.bfloat8_b, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros(((grid_y - 1) * 32, grid_x * 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)

scale_columns(a, s, y)

a_held, s_held = ttnn.to_torch(a).float(), ttnn.to_torch(s).float()
want = a_held * s_held.repeat(grid_y - 1, 1)
got = ttnn.to_torch(y).float()
assert torch.allclose(got, want, rtol=1e-2, atol=1e-2), (got - want).abs().max()
print("scatter_multicast: OK")
