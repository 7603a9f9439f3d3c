"""y = sqrt(relu(exp(x))), one tile at a time: docs/emit.md's SFPU-chain comparison.

Compared with tilecraft/metal/reference_kernels/sfpu_chain: copy_tile into DST, then three SFPU
operations, each after its own init, in place on one DST tile.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def sfpu_chain(x: ttnn.Tensor, y: ttnn.Tensor):
    tiles = (x.shape[0] // 32) * (x.shape[1] // 32)
    cols = x.shape[1] // 32
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        for t in range(tiles):
            with x_dfb.reserve() as blk:
                ttl.copy(x[t // cols, t % cols], blk).wait()

    @ttl.compute()
    def compute():
        for _ in range(tiles):
            with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                y_blk.store(ttl.math.sqrt(ttl.math.relu(ttl.math.exp(x_blk))))

    @ttl.datamovement()
    def writer():
        for t in range(tiles):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[t // cols, t % cols]).wait()


torch.manual_seed(0)
x_host = torch.randn(64, 128)
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 128), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
sfpu_chain(x, y)
assert torch.allclose(ttnn.to_torch(y), torch.sqrt(torch.relu(torch.exp(x_host))), rtol=1e-5, atol=1e-6)
print("compare_sfpu_chain: OK")
