"""``print`` of a block and of a dataflow buffer in threads (1.1.6 prints their shape and first
values; the text is each simulator's own, so only the values computed are compared).
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(1, 1))
def print_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def negate():
        with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            print("x block:", x_blk)
            y_blk.store(-x_blk)

    @ttl.datamovement()
    def read():
        print(x_dfb)
        with x_dfb.reserve() as blk:
            ttl.copy(x[0, 0], blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((32, 32), seed=42)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
print_kernel(x, y)
assert torch.equal(ttnn.to_torch(y).float(), -x_host)
save_outputs(y=y)
ttnn.close_device(device)
