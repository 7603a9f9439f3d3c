"""A TileLang elementwise kernel on tilecraft: C = exp(A) * B + 1, spelt as TileLang's
elementwise_add example (a ``T.Parallel`` body indexing the tensors by ``base + i``).

Each program instance of the 2x2 ``T.Kernel`` grid computes one 64x32 block: the body's element
expression becomes block math on tile slices, which tilecraft loads, computes and stores in a
reader, a compute and a writer thread (docs/tilelang.md).
"""

import torch

import tilecraft.tilelang as T
from tilecraft.tilelang import jit


@jit(out_idx=[-1])
def exp_mul_add(M, N, block_M, block_N, dtype="bfloat16"):
    @T.prim_func
    def kernel(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            for local_y, local_x in T.Parallel(block_M, block_N):
                y = by * block_M + local_y
                x = bx * block_N + local_x
                C[y, x] = T.exp(A[y, x]) * B[y, x] + 1.0

    return kernel


M, N = 128, 64
kernel = exp_mul_add(M, N, 64, 32)
torch.manual_seed(11)
a = torch.randn(M, N).to(torch.bfloat16)
b = torch.randn(M, N).to(torch.bfloat16)
c = kernel(a, b)

want = torch.exp(a.float()) * b.float() + 1.0
assert torch.allclose(c.float(), want, rtol=2 ** -6, atol=2 ** -6), (c.float() - want).abs().max()
print("tilelang elementwise: OK")
