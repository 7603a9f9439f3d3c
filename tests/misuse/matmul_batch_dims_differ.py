import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def bmm(a, b, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(2, 1, 1), block_count=1)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(3, 1, 1), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 1, 1), block_count=1)

    @ttl.compute()
    def multiply():
        with a_dfb.wait() as x, b_dfb.wait() as w, y_dfb.reserve() as out:
            out.store(x @ w)  # ERROR-HERE


def tiles(batch):
    return ttnn.zeros((batch, 32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)


bmm(tiles(2), tiles(3), tiles(2))
