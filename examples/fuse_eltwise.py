"""An elementwise chain written as torch code and fused into one kernel: a SiLU-gated product with a
clamp and a comparison, the kind of epilogue a model writes between two matmuls.

torch evaluates ``silu(g) * u``, the clamp and the ``where`` as separate passes over memory;
``@ttl.fuse`` traces them with torch.fx and compiles one single-threaded operation: each tile of ``g``
and ``u`` is read from DRAM once and each output tile written once, and ``h``, which three operations
read, is computed once (the compiler keeps it in a small buffer of its own between them). The blocks
are spread over the cores of the grid (the default) in 2x2-tile blocks.
"""

import torch

import tilecraft as ttl


@ttl.fuse(block=(2, 2))
def gated(g, u):
    h = torch.nn.functional.silu(g) * u
    return torch.where(h > 0, torch.clamp(h, max=4.0), 0.125 * h)


torch.manual_seed(5)
g = (torch.randn(128, 256) * 2).to(torch.bfloat16)
u = torch.randn(128, 256).to(torch.bfloat16)
got = gated(g, u)  # torch in, torch out: moved to the simulated device and back

h = torch.nn.functional.silu(g.double()) * u.double()
want = torch.where(h > 0, h.clamp(max=4.0), 0.125 * h)
assert got.shape == g.shape and got.dtype == torch.bfloat16
# one rounding to bfloat16 at the store, plus the SFPU's sigmoid: a few bfloat16 ulps
assert torch.allclose(got.double(), want, rtol=2 ** -6, atol=2 ** -8), (got.double() - want).abs().max()
print("fuse_eltwise: OK")
