"""The elementwise ``ttl.block`` functions of 1.1.6: ``fill``, ``transpose``, ``where``, ``mask``,
``mask_posinf``, each combined with a (2, 2)-tile block.

``where``, ``mask`` and ``mask_posinf`` select on a 0/1 block; transpose swaps the tile grid and
every tile.

Variants: fill transpose where mask mask_posinf
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

NAME = sys.argv[1]
SHAPE = (2, 2)  # in tiles


@ttl.operation(grid=(1, 1))
def block_kernel(a: ttnn.Tensor, flags: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=SHAPE, block_count=1)
    f_dfb = ttl.make_dataflow_buffer_like(flags, shape=SHAPE, block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=SHAPE, block_count=1)

    @ttl.compute()
    def apply():
        with a_dfb.wait() as p, f_dfb.wait() as f, y_dfb.reserve() as out:
            if NAME == "fill":
                out.store(p * f + ttl.block.fill(1.5, shape=SHAPE))
            elif NAME == "transpose":
                out.store(ttl.block.transpose(p) + f)
            elif NAME == "where":
                out.store(ttl.block.where(f, p, -p))
            elif NAME == "mask":
                out.store(ttl.block.mask(p, f))
            else:
                out.store(ttl.block.mask_posinf(p, f))

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as a_blk, f_dfb.reserve() as f_blk:
            ttl.copy(a[0:SHAPE[0], 0:SHAPE[1]], a_blk).wait()
            ttl.copy(flags[0:SHAPE[0], 0:SHAPE[1]], f_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0:SHAPE[0], 0:SHAPE[1]]).wait()


device = ttnn.open_device(device_id=0)
shape = (SHAPE[0] * 32, SHAPE[1] * 32)
a_host = bf16_exact(shape, seed=19, step=0.25)
flags_host = (bf16_exact(shape, seed=20) > 0).float()


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


a, flags, y = to_device(a_host), to_device(flags_host), to_device(torch.zeros(shape))
block_kernel(a, flags, y)
expected = {
    "fill": lambda: a_host * flags_host + 1.5,
    "transpose": lambda: a_host.T + flags_host,
    "where": lambda: torch.where(flags_host == 1, a_host, -a_host),
    "mask": lambda: torch.where(flags_host == 1, 0.0, a_host),
    "mask_posinf": lambda: torch.where(flags_host == 1, float("inf"), a_host),
}[NAME]()
assert torch.equal(ttnn.to_torch(y).float(), expected)
save_outputs(y=y)
ttnn.close_device(device)
