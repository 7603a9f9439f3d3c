"""Tensors in other data formats than bfloat16: ``float32``, ``float16`` and ``bfloat8_b`` in and
out, and bfloat16 in with a float32 output (the store rounds into the output's format).

``x * y + x`` over one (1, 2)-tile block.

Variants: float32 float16 bfloat8_b bfloat16_to_float32
Tolerance(bfloat8_b): atol=0.125 rtol=0; the published simulator keeps bfloat8_b tensors in float32;
tilecraft packs every 16 values with a shared exponent as the device does: each rounding (inputs,
result) moves a value by up to half a step of 2**-6 times its group's power-of-two scale, which is
at most 4 here (results below 8)
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

FORMATS = {"float32": (ttnn.float32, ttnn.float32), "float16": (ttnn.float16, ttnn.float16),
           "bfloat8_b": (ttnn.bfloat8_b, ttnn.bfloat8_b),
           "bfloat16_to_float32": (ttnn.bfloat16, ttnn.float32)}[sys.argv[1]]


@ttl.operation(grid=(1, 1))
def fma_kernel(x: ttnn.Tensor, w: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 2), block_count=1)
    w_dfb = ttl.make_dataflow_buffer_like(w, shape=(1, 2), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2), block_count=1)

    @ttl.compute()
    def fma():
        with x_dfb.wait() as x_blk, w_dfb.wait() as w_blk, y_dfb.reserve() as y_blk:
            y_blk.store(x_blk * w_blk + x_blk)

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as x_blk, w_dfb.reserve() as w_blk:
            ttl.copy(x[0, 0:2], x_blk).wait()
            ttl.copy(w[0, 0:2], w_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0:2]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((32, 64), seed=52)
w_host = bf16_exact((32, 64), seed=53)


def to_device(t, dtype):
    return ttnn.from_torch(t, dtype=dtype, layout=ttnn.TILE_LAYOUT, device=device)


x, w = to_device(x_host, FORMATS[0]), to_device(w_host, FORMATS[0])
y = to_device(torch.zeros(32, 64), FORMATS[1])
fma_kernel(x, w, y)
assert torch.allclose(ttnn.to_torch(y).float(), x_host * w_host + x_host, atol=0.1)
save_outputs(y=y)
ttnn.close_device(device)
