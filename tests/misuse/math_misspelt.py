import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def softplus(x, y):
    # found when the compute thread compiles, before anything runs
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(2, 2), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 2), block_count=1)

    @ttl.compute()
    def compute():
        blk = x_dfb.wait()
        out = y_dfb.reserve()
        out.store(ttl.math.log(ttl.math.expp(blk) + 1.0))  # ERROR-HERE
        out.push()
        blk.pop()


x = ttnn.rand((64, 64), layout=ttnn.TILE_LAYOUT)
softplus(x, ttnn.zeros((64, 64), layout=ttnn.TILE_LAYOUT))
