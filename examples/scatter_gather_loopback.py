"""The seed's scatter-gather: every core multicasts to its whole column, itself included.

``ttl.Pipe(src_core=(x, y), dst_core_range=(x, slice(0, grid_y)))`` has the source inside
its own destination range (loopback), so each core of column x receives all ``grid_y``
tiles of the column, its own among them, one pipe after the other. Each core sums what it
received, which makes this a column all-reduce: every core (x, y) writes the same
column sum to y[y, x], and the golden checks every copy.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(2, 4))
def column_allreduce(a: ttnn.Tensor, y: ttnn.Tensor) -> None:
    grid_x, grid_y = ttl.grid_size()
    pipes = [ttl.Pipe(src_core=(x, y_), dst_core_range=(x, slice(0, grid_y)))
             for x in range(grid_x) for y_ in range(grid_y)]

    own_cb = ttl.make_circular_buffer_like(a, shape=(1, 1))
    recv_cb = ttl.make_circular_buffer_like(a, shape=(1, 1))
    y_cb = ttl.make_circular_buffer_like(y, shape=(1, 1))

    @ttl.datamovement()
    def exchange():
        cx, cy = ttl.core()
        with own_cb.reserve() as blk:
            xf = ttl.copy(a[cy, cx], blk)
            xf.wait()

        def send(pipe):
            with own_cb.wait() as blk:
                xf = ttl.copy(blk, pipe)
                xf.wait()

        def receive(pipe):
            with recv_cb.reserve() as blk:
                xf = ttl.copy(pipe, blk)
                xf.wait()

        ttl.if_pipe_src(pipes, send)
        ttl.if_pipe_dst(pipes, receive)

    @ttl.compute()
    def reduce():
        with y_cb.reserve() as acc:
            acc.store(ttl.block.fill(0.0, shape=acc.shape))
            for _ in range(grid_y):
                with recv_cb.wait() as part:
                    acc += part

    @ttl.datamovement()
    def write():
        cx, cy = ttl.core()
        with y_cb.wait() as blk:
            xf = ttl.copy(blk, y[cy, cx])
            xf.wait()

    return ttl.Program(reduce, exchange, write)(a, y)


torch.manual_seed(4)
grid_x, grid_y = 2, 4
a_host = torch.randn(grid_y * 32, grid_x * 32)
a = ttnn.from_torch(a_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((grid_y * 32, grid_x * 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)

column_allreduce(a, y)

column_sum = a_host.reshape(grid_y, 32, grid_x * 32).sum(0)
want = column_sum.repeat(grid_y, 1)
got = ttnn.to_torch(y)
assert torch.allclose(got, want, rtol=1e-5, atol=1e-5), (got - want).abs().max()
print("scatter_gather_loopback: OK")
