"""Every one-block ``ttl.math`` function of the published simulator, one per run.

The function is taken from ``ttl.math`` by name in the operation body and called in the compute
thread on a 1x2-tile bfloat16 block; inputs lie inside the function's domain.

Variants: abs neg exp exp2 expm1 log logp1 sqrt square rsqrt recip tan tanh atan atanh sin asin
Variants: asinh cos acos acosh relu sigmoid gelu silu softsign hardsigmoid selu floor ceil frac
Variants: trunc sign signbit
Tolerance(gelu): atol=0.002 rtol=0.008; tilecraft's gelu is the tanh approximation (docs/numerics.md: the
device's gelu_tile is approximate), within 1e-3 of the exact erf form the reference computes, plus one
bfloat16 rounding step
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

NAME = sys.argv[1]
DOMAINS = {"log": (0.25, 4.0), "logp1": (-0.5, 4.0), "sqrt": (0.0, 4.0), "rsqrt": (0.25, 4.0),
           "recip": (0.25, 4.0), "atanh": (-0.9, 0.9), "asin": (-1.0, 1.0), "acos": (-1.0, 1.0),
           "acosh": (1.0, 4.0), "tan": (-1.5, 1.5)}


@ttl.operation(grid=(1, 1))
def unary_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    function = getattr(ttl.math, NAME)
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 2), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2), block_count=2)

    @ttl.compute()
    def apply():
        with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            y_blk.store(function(x_blk))

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0:1, 0:2], blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:1, 0:2]).wait()


device = ttnn.open_device(device_id=0)
low, high = DOMAINS.get(NAME, (-3.0, 3.0))
x_host = bf16_exact((32, 64), seed=5, low=low, high=high)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
unary_kernel(x, y)
result = ttnn.to_torch(y).float()
assert torch.isfinite(result).all(), f"{NAME}: non-finite results"
save_outputs(y=y)
ttnn.close_device(device)
