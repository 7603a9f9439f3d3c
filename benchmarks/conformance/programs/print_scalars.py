"""``print`` in threads with strings, constants and runtime scalars (loop variables, node
coordinates); the lines printed are compared (sorted: the simulators order threads differently).

Stdout: compare
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(2, 1))
def print_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def copy_through():
        col, _ = ttl.node(dims=2)
        for step in range(2):
            with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                y_blk.store(x_blk + x_blk)
            print("compute node", col, "step", step)

    @ttl.datamovement()
    def read():
        col, _ = ttl.node(dims=2)
        for step in range(2):
            with x_dfb.reserve() as blk:
                ttl.copy(x[step, col], blk).wait()
        print("read done on node", col, "of", ttl.grid_size(dims=1))

    @ttl.datamovement()
    def write():
        col, _ = ttl.node(dims=2)
        for step in range(2):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[step, col]).wait()
        print(f"write done: node {col}, tiles {2 * (col + 1)}")


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((64, 64), seed=40)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
print_kernel(x, y)
assert torch.equal(ttnn.to_torch(y).float(), 2 * x_host)
save_outputs(y=y)
ttnn.close_device(device)
