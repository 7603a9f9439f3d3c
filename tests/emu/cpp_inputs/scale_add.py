"""y = x * 2 + z, with the tensors placed as the first argument says (tests/emu/test_cpp_inputs.py).

  host         every tensor made without device= (the language level accepts them)
  mixed        x on the host, z and y on the script's device
  two_devices  x on device 1, z and y on device 0
Prints the tensors' values after the launch, for the test to compare with torch.
"""

import sys

import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def scale_add(x, z, y):
    rows = x.shape[0] // 32
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    z_dfb = ttl.make_dataflow_buffer_like(z, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        for r in range(rows):
            with x_dfb.reserve() as xb, z_dfb.reserve() as zb:
                ttl.copy(x[r, 0], xb).wait()
                ttl.copy(z[r, 0], zb).wait()

    @ttl.compute()
    def compute():
        for _ in range(rows):
            with x_dfb.wait() as xb, z_dfb.wait() as zb, y_dfb.reserve() as yb:
                yb.store(xb * 2.0 + zb)

    @ttl.datamovement()
    def writer():
        for r in range(rows):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[r, 0]).wait()


placement = sys.argv[1]
torch.manual_seed(0)
x_values, z_values = torch.rand((64, 32)), torch.rand((64, 32))
devices = [ttnn.open_device(device_id=i) for i in range(2)] if placement != "host" else [None, None]
x_device = {"host": None, "mixed": None, "two_devices": devices[1]}[placement]
x = ttnn.from_torch(x_values, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=x_device)
z = ttnn.from_torch(z_values, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=devices[0])
y = ttnn.zeros((64, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=devices[0])
scale_add(x, z, y)
