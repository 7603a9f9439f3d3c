"""A small model step mixing ttnn ops and a TT-Lang kernel, for ``tilecraft profile``'s op table:
row-major input tiled by ttnn, a custom TT-Lang scaling kernel, a projection, a broadcast bias add,
gelu, softmax, and the result back to row-major."""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def double(x: ttnn.Tensor, y: ttnn.Tensor) -> None:
    cols = x.shape[1] // 32
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, cols), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, cols), block_count=2)

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0, 0:cols], blk).wait()

    @ttl.compute()
    def compute():
        with x_dfb.wait() as xb, y_dfb.reserve() as yb:
            yb.store(xb + xb)

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0:cols]).wait()


torch.manual_seed(0)
device = ttnn.open_device(device_id=0)
x_host = torch.randn(32, 64)
w_host = torch.randn(64, 128)
b_host = torch.randn(1, 128)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device)
x = ttnn.to_layout(x, ttnn.TILE_LAYOUT)
h = ttnn.zeros((32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
double(x, h)
w = ttnn.from_torch(w_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
b = ttnn.from_torch(b_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
hifi = ttnn.WormholeComputeKernelConfig(math_fidelity=ttnn.MathFidelity.HiFi2)
y = ttnn.matmul(h, w, compute_kernel_config=hifi)
y = ttnn.add(y, b)
y = ttnn.gelu(y)
y = ttnn.softmax(y, dim=-1)
out = ttnn.to_layout(y, ttnn.ROW_MAJOR_LAYOUT)
got = ttnn.to_torch(out).float()
want = torch.softmax(torch.nn.functional.gelu(2 * x_host @ w_host + b_host, approximate="tanh"), dim=-1)
pcc = torch.corrcoef(torch.stack([got.flatten(), want.flatten()]))[0, 1]
assert pcc > 0.999, pcc  # HiFi2 drops low mantissa bits of the products
ttnn.close_device(device)
print("ttnn_model: OK")
