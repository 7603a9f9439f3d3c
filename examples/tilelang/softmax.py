"""A TileLang row softmax on tilecraft: the row maximum and the row sum with ``T.reduce_max`` and
``T.reduce_sum`` into per-row fragments, read back as ``row_max[i]`` in ``T.Parallel`` bodies.

Each program instance of the 1x2 ``T.Kernel`` grid takes a band of ``block_M`` rows across the
whole width, so each reduction stays inside one block (docs/tilelang.md).
"""

import torch

import tilecraft.tilelang as T
from tilecraft.tilelang import jit


@jit(out_idx=[-1])
def softmax(M, N, block_M, dtype="bfloat16", accum_dtype="float"):
    @T.prim_func
    def kernel(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            X_shared = T.alloc_shared((block_M, N), dtype)
            E = T.alloc_fragment((block_M, N), accum_dtype)
            row_max = T.alloc_fragment((block_M,), accum_dtype)
            row_sum = T.alloc_fragment((block_M,), accum_dtype)
            T.copy(X[bx * block_M, 0], X_shared)
            T.reduce_max(X_shared, row_max, dim=1)
            for i, j in T.Parallel(block_M, N):
                E[i, j] = T.exp(X_shared[i, j] - row_max[i])
            T.reduce_sum(E, row_sum, dim=1)
            for i, j in T.Parallel(block_M, N):
                E[i, j] = E[i, j] / row_sum[i]
            T.copy(E, Y[bx * block_M, 0])

    return kernel


M, N = 64, 128
kernel = softmax(M, N, 32)
torch.manual_seed(13)
x = (torch.randn(M, N) * 3.0).to(torch.bfloat16)
y = kernel(x)

want = torch.softmax(x.float(), dim=-1)
assert torch.allclose(y.float(), want, rtol=2e-2, atol=2e-3), (y.float() - want).abs().max()
print("tilelang softmax: OK")
