"""The seed's many-to-one barrier: core 0 waits until every other core has written its part.

Each non-0 core k computes relu(a_k) and writes it to tile k - 1 of the DRAM tensor
``parts``, then bumps core 0's semaphore with ``core_0_barrier.inc(1)``
(``core_0_barrier = my_barrier.get_remote((0, 0))``). Core 0
``my_barrier.wait_for(non_0_core_count)`` and only then reads every part back and sums them
into ``y``.

The result proves the synchronisation: ``parts`` starts as zeros, so a core 0 that read
before all the writes had landed would miss a part and fail the golden.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(3, 2))
def sum_of_parts(a: ttnn.Tensor, parts: ttnn.Tensor, y: ttnn.Tensor) -> None:
    core_num = ttl.core(dims=1)
    my_barrier = ttl.Semaphore()
    core_0_barrier = my_barrier.get_remote((0, 0))
    non_0_core_count = ttl.grid_size(dims=1) - 1

    in_cb = ttl.make_circular_buffer_like(a, shape=(1, 1))
    out_cb = ttl.make_circular_buffer_like(y, shape=(1, 1))

    @ttl.datamovement()
    def read():
        if core_num != 0:
            with in_cb.reserve() as blk:
                xf = ttl.copy(a[0, core_num - 1], blk)
                xf.wait()
        else:
            my_barrier.wait_for(non_0_core_count)  # every part has landed in DRAM
            for k in range(non_0_core_count):
                with in_cb.reserve() as blk:
                    xf = ttl.copy(parts[0, k], blk)
                    xf.wait()

    @ttl.compute()
    def compute():
        if core_num != 0:
            with in_cb.wait() as x, out_cb.reserve() as out:
                out.store(ttl.math.relu(x))
        else:
            with out_cb.reserve() as acc:
                acc.store(ttl.block.fill(0.0, shape=acc.shape))
                for _ in range(non_0_core_count):
                    with in_cb.wait() as part:
                        acc += part

    @ttl.datamovement()
    def write():
        with out_cb.wait() as blk:
            if core_num != 0:
                xf = ttl.copy(blk, parts[0, core_num - 1])
                xf.wait()
                core_0_barrier.inc(1)  # only after the write has landed
            else:
                xf = ttl.copy(blk, y[0, 0])
                xf.wait()

    return ttl.Program(compute, read, write)(a, parts, y)


torch.manual_seed(6)
others = 3 * 2 - 1
a_host = torch.randn(32, 32 * others)
a = ttnn.from_torch(a_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
parts = ttnn.zeros((32, 32 * others), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)

sum_of_parts(a, parts, y)

got = ttnn.to_torch(y)
want = torch.relu(a_host).reshape(32, others, 32).sum(1)
assert torch.allclose(got, want, rtol=1e-5, atol=1e-5), (got - want).abs().max()
print("barrier_many_to_one: OK")
