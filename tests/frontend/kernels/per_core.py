"""Kernel scope runs per core when it asks for the core: differing integers become runtime args."""
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn


def tile_of(core_num, per_core):
    return core_num * per_core


@ttl.kernel(grid=(2, 2))
def copy_rows(a, y):
    core_num = ttl.core(dims=1)
    per_core = (a.shape[0] // 32) // ttl.grid_size(dims=1)
    start = core_num * per_core
    a_cb = ttl.make_circular_buffer_like(a, shape=(1, 1), buffer_factor=2)

    # CHECK: param #0 "start" = [0, 1, 2, 3]
    @ttl.datamovement()
    def reader():
        # CHECK: datamovement @reader
        # CHECK: %start = kernel.param index=0
        # CHECK: scf.for %i = 0 to 1 step 1
        for i in range(per_core):
            with a_cb.reserve() as blk:
                ttl.copy(a[start + i, 0], blk).wait()

    @ttl.datamovement()
    def writer():
        # CHECK: datamovement @writer
        total = 0
        for i in range(per_core):
            # CHECK: %total = arith.assign %t
            total = total + 1
            with a_cb.wait() as blk:
                ttl.copy(blk, y[tile_of(core_num, per_core) + i, 0]).wait()

    return ttl.Program(reader, writer)(a, y)


x = torch.randn(128, 32)
a = ttnn.from_torch(x, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(128, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
copy_rows(a, y)
assert torch.equal(ttnn.to_torch(y), x)
