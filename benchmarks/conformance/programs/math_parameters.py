"""The ``ttl.math`` functions with scalar parameters, one per run, parameters by position.

Variants: rsub relu_max relu_min leaky_relu elu celu prelu softplus hardtanh round clamp threshold
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

NAME = sys.argv[1]
PARAMETERS = {"rsub": (2,), "relu_max": (1.5,), "relu_min": (0.5,), "leaky_relu": (0.125,), "elu": (0.5,),
              "celu": (2.0, 0.5), "prelu": (0.25,), "softplus": (2.0, 0.5, 20.0), "hardtanh": (-1.0, 1.5),
              "round": (1,), "clamp": (-0.75, 1.25), "threshold": (0.5, -4.0)}[NAME]
COUNT = len(PARAMETERS)


@ttl.operation(grid=(1, 1))
def parameter_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    function = getattr(ttl.math, NAME)
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def apply():
        with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            if COUNT == 1:
                y_blk.store(function(x_blk, PARAMETERS[0]))
            elif COUNT == 2:
                y_blk.store(function(x_blk, PARAMETERS[0], PARAMETERS[1]))
            else:
                y_blk.store(function(x_blk, PARAMETERS[0], PARAMETERS[1], PARAMETERS[2]))

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0, 0], blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((32, 32), seed=6, low=-3.0, high=3.0)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
parameter_kernel(x, y)
assert torch.isfinite(ttnn.to_torch(y).float()).all()
save_outputs(y=y)
ttnn.close_device(device)
