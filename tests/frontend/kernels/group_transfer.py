"""TT-Lang 1.1 GroupTransfer: copies added to a group, waited together."""
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn

@ttl.operation(grid=(1, 1))
def two(a, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)
    @ttl.datamovement()
    def read():
        # CHECK: %group = dm.group_new
        # CHECK: dm.group_add %group, %xf
        # CHECK: dm.group_wait %group
        for i in range(2):
            with a_dfb.reserve() as blk:
                g = ttl.GroupTransfer()
                g.add(ttl.copy(a[i, 0], blk))
                g.wait_all()
    @ttl.compute()
    def comp():
        for i in range(2):
            with a_dfb.wait() as x, y_dfb.reserve() as o:
                o.store(x * 2.0)
    @ttl.datamovement()
    def write():
        for i in range(2):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[i, 0]).wait()

x = torch.randn(64, 32)
a = ttnn.from_torch(x, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
two(a, y)
assert torch.equal(ttnn.to_torch(y), x * 2)
print("ok")
