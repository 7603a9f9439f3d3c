"""An MLP layer's epilogue fused with its matmul: y = gelu(x @ w + b), written as torch code.

``@ttl.fuse`` traces the function with torch.fx and compiles it into one single-threaded operation:
each output tile loads its row band of ``x``, its column band of ``w`` and its piece of the bias
row ``b``, multiplies, broadcasts the bias down the rows, applies gelu and stores, in one kernel
(torch would make three passes over memory). Here it runs on ttnn tensors and gives one; given
torch tensors it moves them to the simulated device and the result back (``fuse_softmax.py``).
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.fuse
def mlp_epilogue(x, w, b):
    return torch.nn.functional.gelu(x @ w + b)


torch.manual_seed(6)
x = torch.randn(64, 64).to(torch.bfloat16)
w = (torch.randn(64, 64) / 8).to(torch.bfloat16)
b = torch.randn(64).to(torch.bfloat16)
want = torch.nn.functional.gelu(x.double() @ w.double() + b.double())

got = ttnn.to_torch(mlp_epilogue(ttnn.from_torch(x, layout=ttnn.TILE_LAYOUT),
                                 ttnn.from_torch(w, layout=ttnn.TILE_LAYOUT),
                                 ttnn.from_torch(b, layout=ttnn.TILE_LAYOUT)))
assert got.shape == (64, 64) and got.dtype == torch.bfloat16
# the matmul sums in fp32, then the bias and gelu round once more to bfloat16: two ulps of the largest value
assert (got.double() - want).abs().max() <= 2 * 2 ** -7 * want.abs().max(), (got.double() - want).abs().max()
print("fuse_mlp_epilogue: OK")
