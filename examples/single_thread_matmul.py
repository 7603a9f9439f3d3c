"""A single-threaded matmul on a 2x2 grid: y = relu(a @ b), with the K loop written as a for loop.

Each output block of ``y`` (``block=(BM, BN)`` tiles) is one step of the spatial loop, which the
decorator's metadata spreads over the grid; the K loop is temporal, written in the body. The running
sum lives in a local block (``acc``, fp32 as DST keeps it) and is stored once. The compiler makes
one reader (both K slices per step), one compute thread (the multiply-accumulate) and one writer.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BM, BK, BN = 2, 2, 1


@ttl.operation(grid=(2, 2), block=(BM, BN))
def matmul_relu(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    m, n = ttl.block_index()
    acc = ttl.block.fill(0, shape=(BM, BN))
    for kb in range(a.shape[1] // TILE // BK):
        acc += a[m * BM:(m + 1) * BM, kb * BK:(kb + 1) * BK] @ b[kb * BK:(kb + 1) * BK, n * BN:(n + 1) * BN]
    y[m * BM:(m + 1) * BM, n * BN:(n + 1) * BN] = ttl.math.relu(acc)


torch.manual_seed(5)
M, K, N = 2 * BM * TILE, 3 * BK * TILE, 3 * BN * TILE
a = torch.randn(M, K).to(torch.bfloat16)
b = torch.randn(K, N).to(torch.bfloat16)
a_t = ttnn.from_torch(a, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b_t = ttnn.from_torch(b, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y_t = ttnn.zeros((M, N), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
matmul_relu(a_t, b_t, y_t)

# one rounding to bfloat16 at the end (the sum is kept in fp32): within one bfloat16 ulp of the largest result
want = torch.relu(a.double() @ b.double()).to(torch.bfloat16)
got = ttnn.to_torch(y_t)
assert (got.float() - want.float()).abs().max() <= 2 ** -7 * want.float().abs().max()
print("single_thread_matmul: OK")
