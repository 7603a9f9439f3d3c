"""The seed's one-to-many barrier: non-0 cores wait until core 0 has produced their input.

Core 0 computes t = exp(a) and writes it to the DRAM tensor ``t``; only when that write has
completed does it raise the barrier with ``all_barrier.set(1)``, where
``all_barrier = my_barrier.get_remote_multicast()`` reaches every core of the grid. The
other cores ``my_barrier.wait_for(1)`` before reading ``t``, then store t * core_num into their
own tile of ``y``.

The result proves the synchronisation: ``t`` starts as zeros, so a core that read it before
core 0's write would produce zeros and fail the golden.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(2, 2))
def publish_then_read(a: ttnn.Tensor, t: ttnn.Tensor, y: ttnn.Tensor) -> None:
    core_num = ttl.core(dims=1)
    my_barrier = ttl.Semaphore()
    all_barrier = my_barrier.get_remote_multicast()

    in_cb = ttl.make_circular_buffer_like(a, shape=(1, 1))
    out_cb = ttl.make_circular_buffer_like(y, shape=(1, 1))

    @ttl.datamovement()
    def read():
        if core_num == 0:
            with in_cb.reserve() as blk:
                xf = ttl.copy(a[0, 0], blk)
                xf.wait()
        else:
            my_barrier.wait_for(1)  # core 0 is done: t holds exp(a)
            with in_cb.reserve() as blk:
                xf = ttl.copy(t[0, 0], blk)
                xf.wait()

    @ttl.compute()
    def compute():
        with in_cb.wait() as x, out_cb.reserve() as out:
            if core_num == 0:
                out.store(ttl.math.exp(x))
            else:
                out.store(x * float(core_num))

    @ttl.datamovement()
    def write():
        with out_cb.wait() as blk:
            if core_num == 0:
                xf = ttl.copy(blk, t[0, 0])
                xf.wait()
                all_barrier.set(1)  # only after the write has landed
            else:
                xf = ttl.copy(blk, y[0, core_num - 1])
                xf.wait()

    return ttl.Program(compute, read, write)(a, t, y)


torch.manual_seed(5)
cores = 4
a_host = torch.rand(32, 32)
a = ttnn.from_torch(a_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
t = ttnn.zeros((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32 * (cores - 1)), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)

publish_then_read(a, t, y)

got = ttnn.to_torch(y)
want = torch.cat([torch.exp(a_host) * k for k in range(1, cores)], dim=1)
assert torch.allclose(got, want, rtol=1e-5, atol=1e-5), (got - want).abs().max()
print("barrier_one_to_many: OK")
