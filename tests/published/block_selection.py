"""The 1.1.6 block functions on a 0/1 flag block: ``ttl.block.where``, ``mask``, ``mask_posinf``;
``ttl.block.squeeze`` / ``unsqueeze`` between 3-D and 2-D blocks; ``%`` (Python's remainder) and
``ttl.math.threshold`` (values above the threshold replaced), each against torch."""
import torch

import ttl
import ttnn

FUNCTIONS = ("where", "mask", "mask_posinf", "unsqueeze", "remainder", "threshold")
WHAT = FUNCTIONS[0]  # the kernel below applies this one


@ttl.operation(grid=(1, 1))
def select(a, flags, b3, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(2, 2), block_count=1)
    f_dfb = ttl.make_dataflow_buffer_like(flags, shape=(2, 2), block_count=1)
    b_dfb = ttl.make_dataflow_buffer_like(b3, shape=(1, 2, 2), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 2), block_count=1)

    @ttl.compute()
    def apply():
        with a_dfb.wait() as p, f_dfb.wait() as f, b_dfb.wait() as q, y_dfb.reserve() as out:
            if WHAT == "where":
                out.store(ttl.block.where(f, p, -p))
            elif WHAT == "mask":
                out.store(ttl.block.mask(p, f) + ttl.block.squeeze(q, [0]))
            elif WHAT == "mask_posinf":
                out.store(ttl.block.mask_posinf(p, f))
            elif WHAT == "unsqueeze":
                out.store(ttl.block.squeeze(ttl.block.unsqueeze(p, [0]) * q, [0]))
            elif WHAT == "remainder":
                out.store(p % (f + 0.75))
            else:
                out.store(ttl.math.threshold(p, 0.5, -7.0))

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as a_blk, f_dfb.reserve() as f_blk, b_dfb.reserve() as b_blk:
            ttl.copy(a[0:2, 0:2], a_blk).wait()
            ttl.copy(flags[0:2, 0:2], f_blk).wait()
            ttl.copy(b3[0:1, 0:2, 0:2], b_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:2, 0:2]).wait()


torch.manual_seed(5)
a_host = (torch.randint(-16, 17, (64, 64)) / 8.0).float()  # multiples of 1/8: 0.5 itself occurs
f_host = (torch.rand(64, 64) > 0.5).float()
b_host = torch.randn(1, 64, 64)


def tile(t):
    return ttnn.from_torch(t, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)


EXPECTED = {
    "where": lambda: torch.where(f_host == 1, a_host, -a_host),
    "mask": lambda: torch.where(f_host == 1, 0.0, a_host) + b_host[0],
    "mask_posinf": lambda: torch.where(f_host == 1, float("inf"), a_host),
    "unsqueeze": lambda: a_host * b_host[0],
    "remainder": lambda: torch.remainder(a_host, f_host + 0.75),
    "threshold": lambda: torch.where(a_host > 0.5, -7.0, a_host),
}
for WHAT in FUNCTIONS:
    y = tile(torch.zeros(64, 64))
    select(tile(a_host), tile(f_host), tile(b_host), y)
    expected = EXPECTED[WHAT]()
    assert torch.equal(ttnn.to_torch(y), expected), (WHAT, (ttnn.to_torch(y) - expected).abs().max())
