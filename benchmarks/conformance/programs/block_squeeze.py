"""``ttl.block.squeeze`` and ``ttl.block.unsqueeze`` between 3-D and 2-D tile blocks.

``squeeze``: a (1, 1, 2) block of a 3-D tensor, dim 0 removed, added to a (1, 2) block of a 2-D
tensor. ``unsqueeze``: a (1, 2) block of a 2-D tensor given a leading dim, added to a (1, 1, 2)
block of a 3-D tensor.

Variants: squeeze unsqueeze
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

NAME = sys.argv[1]
THREE, TWO = (1, 1, 2), (1, 2)  # block shapes in tiles
SOURCE, OTHER = (THREE, TWO) if NAME == "squeeze" else (TWO, THREE)


@ttl.operation(grid=(1, 1))
def squeeze_kernel(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=SOURCE, block_count=1)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=OTHER, block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=OTHER, block_count=1)

    @ttl.compute()
    def apply():
        with a_dfb.wait() as p, b_dfb.wait() as q, y_dfb.reserve() as out:
            if NAME == "squeeze":
                out.store(ttl.block.squeeze(p, [0]) + q)
            else:
                out.store(ttl.block.unsqueeze(p, [0]) + q)

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
            if NAME == "squeeze":
                ttl.copy(a[0:1, 0:1, 0:2], a_blk).wait()
                ttl.copy(b[0:1, 0:2], b_blk).wait()
            else:
                ttl.copy(a[0:1, 0:2], a_blk).wait()
                ttl.copy(b[0:1, 0:1, 0:2], b_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            if NAME == "squeeze":
                ttl.copy(y_blk, y[0:1, 0:2]).wait()
            else:
                ttl.copy(y_blk, y[0:1, 0:1, 0:2]).wait()


device = ttnn.open_device(device_id=0)
three_host = bf16_exact((1, 32, 64), seed=21, step=0.25)
two_host = bf16_exact((32, 64), seed=22, step=0.25)
a_host, b_host = (three_host, two_host) if NAME == "squeeze" else (two_host, three_host)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


a, b, y = to_device(a_host), to_device(b_host), to_device(torch.zeros(b_host.shape))
squeeze_kernel(a, b, y)
assert torch.equal(ttnn.to_torch(y).float(), (three_host + two_host).reshape(b_host.shape))
save_outputs(y=y)
ttnn.close_device(device)
