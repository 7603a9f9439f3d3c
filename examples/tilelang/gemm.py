"""A TileLang GEMM on tilecraft: C = A @ B, spelt as TileLang's own matmul example.

The K loop is a ``T.Pipelined`` loop (double-buffered: ``num_stages=2`` blocks per dataflow buffer),
``T.gemm`` accumulates into a fragment (DST), ``T.copy`` moves tile-aligned blocks between the
tensors and the shared buffers (L1). tilecraft translates the prim_func into a single-threaded
operation and splits it into a reader, a compute and a writer thread per core; the 2x2 grid of
``T.Kernel`` is the spatial loop over the cores (docs/tilelang.md).
"""

import torch

import tilecraft.tilelang as T
from tilecraft.tilelang import jit


@jit(out_idx=[-1])
def matmul(M, N, K, block_M, block_N, block_K, dtype="bfloat16", accum_dtype="float"):
    @T.prim_func
    def gemm(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return gemm


M, N, K = 128, 64, 192
kernel = matmul(M, N, K, 64, 32, 64)
torch.manual_seed(7)
a = torch.randn(M, K).to(torch.bfloat16)
b = torch.randn(K, N).to(torch.bfloat16)
c = kernel(a, b)

# the sum is kept in fp32 and rounded to bfloat16 once: within one bfloat16 ulp of the largest result
want = (a.double() @ b.double()).to(torch.bfloat16)
assert (c.float() - want.float()).abs().max() <= 2 ** -7 * want.float().abs().max(), (c.float() - want.float()).abs().max()
print("tilelang gemm: OK")
