"""Members of the objects a 1.1.6 program holds, used the way a program would: a pipe's ``.src``
and ``.dst`` in the operation body, ``len(blk)`` (tiles in a block) and a dataflow buffer's
``block_count`` and ``capacity_tiles`` in threads (as loop bounds and fill values).

Variants: pipe_attributes block_len dfb_block_count dfb_capacity_tiles
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

WHAT = sys.argv[1]


@ttl.operation(grid=(2, 1))
def members(x: ttnn.Tensor, y: ttnn.Tensor):
    pipe = ttl.Pipe((1, 0), (0, 0))
    offset = 0
    if WHAT == "pipe_attributes":
        src_col, _ = pipe.src
        dst_col, _ = pipe.dst
        offset = 8 * src_col + dst_col
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 2), block_count=3)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2), block_count=3)

    @ttl.compute()
    def label():
        with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            value = offset
            if WHAT == "block_len":
                value = len(x_blk)
            elif WHAT == "dfb_capacity_tiles":
                value = x_dfb.capacity_tiles
            y_blk.store(x_blk + ttl.block.fill(value, shape=(1, 2)))

    @ttl.datamovement()
    def read():
        col, _ = ttl.node(dims=2)
        rounds = 1
        if WHAT == "dfb_block_count":
            rounds = x_dfb.block_count - 2
        for _ in range(rounds):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, 2 * col:2 * col + 2], blk).wait()

    @ttl.datamovement()
    def write():
        col, _ = ttl.node(dims=2)
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 2 * col:2 * col + 2]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((32, 128), seed=61, step=0.25)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 128), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
members(x, y)
added = {"pipe_attributes": 8, "block_len": 2, "dfb_block_count": 0, "dfb_capacity_tiles": 6}[WHAT]
assert torch.equal(ttnn.to_torch(y).float(), x_host + added)
save_outputs(y=y)
ttnn.close_device(device)
