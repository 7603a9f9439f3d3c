"""The two-block ``ttl.math`` functions (max, min and the comparisons giving 0/1), one per run.

Variants: max min eq ne gt lt
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

NAME = sys.argv[1]


@ttl.operation(grid=(1, 1))
def binary_kernel(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    function = getattr(ttl.math, NAME)
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(2, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(2, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 1), block_count=2)

    @ttl.compute()
    def apply():
        with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
            y_blk.store(function(a_blk, b_blk))

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
            ttl.copy(a[0:2, 0], a_blk).wait()
            ttl.copy(b[0:2, 0], b_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:2, 0]).wait()


device = ttnn.open_device(device_id=0)
a_host = bf16_exact((64, 32), seed=7, step=0.5)
b_host = bf16_exact((64, 32), seed=8, step=0.5)  # coarse values: many ties for eq/ne


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


a, b, y = to_device(a_host), to_device(b_host), to_device(torch.zeros(64, 32))
binary_kernel(a, b, y)
expected = {"max": torch.maximum, "min": torch.minimum, "eq": torch.eq, "ne": torch.ne, "gt": torch.gt,
            "lt": torch.lt}[NAME](a_host, b_host).float()
assert torch.equal(ttnn.to_torch(y).float(), expected)
save_outputs(y=y)
ttnn.close_device(device)
