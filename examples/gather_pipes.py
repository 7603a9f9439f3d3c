"""The seed's gather: unicast pipes from every core (x, y), x >= 1, to (0, y) of its row.

Each core squares its own tile of ``a``; the cores of row y send their squares to core
(0, y) over ``ttl.Pipe(src_core=(x, y), dst_core=(0, y))``. Core (0, y) receives them one
pipe after the other (the pipes into one core are sequential, the rows run concurrently),
accumulates them with ``+=`` into its own square and stores the element-wise root:
y[row] = sqrt(sum over x of a[row, x] ** 2), an L2 norm across the tile columns.

Pipes are listed in kernel scope; ``ttl.if_pipe_src`` / ``ttl.if_pipe_dst`` call the
helper for the pipes whose source / destination is the current core.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(4, 3))
def row_norms(a: ttnn.Tensor, y: ttnn.Tensor) -> None:
    grid_x, grid_y = ttl.grid_size()
    pipes = [ttl.Pipe(src_core=(x, y_), dst_core=(0, y_)) for x in range(1, grid_x) for y_ in range(grid_y)]

    a_cb = ttl.make_circular_buffer_like(a, shape=(1, 1))
    sq_cb = ttl.make_circular_buffer_like(a, shape=(1, 1))    # a square on its way to the pipe
    recv_cb = ttl.make_circular_buffer_like(a, shape=(1, 1))  # a square received from the pipe
    y_cb = ttl.make_circular_buffer_like(y, shape=(1, 1))

    @ttl.datamovement()
    def read():
        cx, cy = ttl.core()
        with a_cb.reserve() as blk:
            xf = ttl.copy(a[cy, cx], blk)
            xf.wait()

    @ttl.compute()
    def compute():
        cx, cy = ttl.core()
        if cx != 0:
            with a_cb.wait() as a_blk, sq_cb.reserve() as sq:
                sq.store(a_blk * a_blk)
        else:
            with a_cb.wait() as a_blk, y_cb.reserve() as acc:
                acc.store(a_blk * a_blk)
                for _ in range(grid_x - 1):
                    with recv_cb.wait() as part:
                        acc += part
                acc.store(ttl.math.sqrt(acc))

    @ttl.datamovement()
    def write():
        cx, cy = ttl.core()

        def send(pipe):
            with sq_cb.wait() as blk:
                xf = ttl.copy(blk, pipe)
                xf.wait()

        def receive(pipe):
            with recv_cb.reserve() as blk:
                xf = ttl.copy(pipe, blk)
                xf.wait()

        ttl.if_pipe_src(pipes, send)
        ttl.if_pipe_dst(pipes, receive)

        if cx == 0:
            with y_cb.wait() as blk:
                xf = ttl.copy(blk, y[cy, 0])
                xf.wait()

    return ttl.Program(compute, read, write)(a, y)


torch.manual_seed(2)
a_host = torch.randn(3 * 32, 4 * 32)
a = ttnn.from_torch(a_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((3 * 32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)

row_norms(a, y)

got = ttnn.to_torch(y)
want = a_host.reshape(3 * 32, 4, 32).pow(2).sum(1).sqrt()
assert torch.allclose(got, want, rtol=1e-5, atol=1e-5), (got - want).abs().max()
print("gather_pipes: OK")
