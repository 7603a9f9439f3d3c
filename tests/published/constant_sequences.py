"""Loops over constant sequences in the published spelling: dataflow buffers made by a module helper
and kept in a list, walked with ``zip(dfbs, tensors)``, ``enumerate(dfbs)`` and ``reversed(...)``
(each unrolled), and ``rows, cols = blk.shape`` checked by an ``assert``."""
import torch

import ttl
import ttnn


def make_dfb(t, count=2):
    return ttl.make_dataflow_buffer_like(t, shape=(1, 1), block_count=count)


@ttl.operation(grid=(1, 1))
def weighted_sum(a, b, c, y):
    ins = [make_dfb(t) for t in (a, b, c)]
    srcs = (a, b, c)
    out = make_dfb(y, 1)
    tiles = a.shape[1] // ttl.TILE_SHAPE[1]

    @ttl.compute()
    def compute():
        for _ in range(tiles):
            with ins[0].wait() as x0, ins[1].wait() as x1, ins[2].wait() as x2, out.reserve() as o:
                rows, cols = o.shape
                assert (rows, cols) == (1, 1)
                o.store(x0 + x1 * ttl.block.fill(2.0, shape=(1, 1)) + x2 * ttl.block.fill(3.0, shape=(1, 1)))

    @ttl.datamovement()
    def reader():
        for i in range(tiles):
            for d, t in reversed(tuple(zip(ins, srcs))):
                with d.reserve() as blk:
                    ttl.copy(t[0, i], blk).wait()

    @ttl.datamovement()
    def writer():
        for i in range(tiles):
            for k, d in enumerate([out]):
                with d.wait() as o:
                    ttl.copy(o, y[k, i]).wait()


torch.manual_seed(7)
hosts = [torch.randn(32, 96) for _ in range(3)]
a, b, c = (ttnn.from_torch(h, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT) for h in hosts)
y = ttnn.from_torch(torch.zeros(32, 96), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
weighted_sum(a, b, c, y)
expected = hosts[0] + hosts[1] * 2 + hosts[2] * 3
assert torch.allclose(ttnn.to_torch(y), expected, atol=1e-5), (ttnn.to_torch(y) - expected).abs().max()
