"""Error: storing a tile-layout expression into a row-major block whose shape has the same numbers
(issue 7 item 2): (1, 2) tiles into (1, 2) elements.

Expect: error E0105
"""

import torch
import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def store_kernel(t: ttnn.Tensor, r: ttnn.Tensor):
    t_dfb = ttl.make_dataflow_buffer_like(t, shape=(1, 2), block_count=1)
    r_dfb = ttl.make_dataflow_buffer_like(r, shape=(1, 2), block_count=1)

    @ttl.compute()
    def convert():
        with t_dfb.wait() as t_blk, r_dfb.reserve() as r_blk:
            r_blk.store(t_blk + t_blk)  # ERROR-HERE

    @ttl.datamovement()
    def read():
        with t_dfb.reserve() as t_blk:
            ttl.copy(t[0:1, 0:2], t_blk).wait()

    @ttl.datamovement()
    def write():
        with r_dfb.wait() as r_blk:
            ttl.copy(r_blk, r[0:1, 0:2]).wait()


device = ttnn.open_device(device_id=0)
t = ttnn.from_torch(torch.ones(32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
r = ttnn.from_torch(torch.zeros(1, 2), dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device)
store_kernel(t, r)
ttnn.close_device(device)
