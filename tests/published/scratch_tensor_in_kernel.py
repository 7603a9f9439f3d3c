"""A tensor made in the operation's body (a scratch tensor in DRAM) is a tensor of the launch."""
import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def round_trip(a, y):
    scratch = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def mover():
        with dfb.reserve() as blk:
            ttl.copy(a[0, 0], blk).wait()
        with dfb.wait() as blk:
            ttl.copy(blk, scratch[0, 0]).wait()
        with dfb.reserve() as blk:
            ttl.copy(scratch[0, 0], blk).wait()
        with dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()

    @ttl.compute()
    def idle():
        pass

    @ttl.datamovement()
    def idle_dm():
        pass


torch.manual_seed(2)
a = ttnn.from_torch(torch.randn(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
round_trip(a, y)
assert torch.equal(ttnn.to_torch(y), ttnn.to_torch(a))
