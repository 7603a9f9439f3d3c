"""silu of an int32 block: torch's silu has no integer kernel, and the simulation stops with
``NotImplementedError: "silu_cpu" not implemented for 'Long'`` and torch's frames (not a
diagnostic, not even labelled an internal error). The same for elu, frac, gelu, hardsigmoid,
hardswish, leaky_relu, mish, prelu, round and selu. docs/numerics.md section 4: "Transcendental
functions of integers return fp32". Expected: y = silu(x) in float32.
"""

import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def kern(x, y):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.datamovement()
    def reader():
        with x_dfb.reserve() as blk:
            ttl.copy(x[0, 0], blk).wait()

    @ttl.compute()
    def compute():
        with x_dfb.wait() as xb, y_dfb.reserve() as yb:
            yb.store(ttl.math.silu(xb))

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


x_host = torch.randint(-4, 5, (32, 32), dtype=torch.int32)
x = ttnn.from_torch(x_host, dtype=ttnn.int32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(x, y)
assert torch.allclose(ttnn.to_torch(y), torch.nn.functional.silu(x_host.float()), rtol=1e-5, atol=1e-6)
print("silu of int32: OK")
