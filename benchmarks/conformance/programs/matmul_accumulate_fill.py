"""The 1.1.6 accumulator idiom: ``acc = ttl.block.fill(0, shape=...)``, ``acc += a @ b`` over K,
then ``out.store(acc)`` (issue 7 item 1).

(64 x 96) @ (96 x 64) in (2, 1) by (1, 2) tile blocks, three K steps; the inputs are
multiples of 1/8 so every sum is exact and no summation order can change a bit.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

M, K, N = 2, 3, 2  # in tiles


@ttl.operation(grid=(1, 1))
def matmul_kernel(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(M, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, N), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(M, N), block_count=1)

    @ttl.compute()
    def multiply():
        acc = ttl.block.fill(0, shape=(M, N))
        for _ in range(K):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                acc += a_blk @ b_blk
        with y_dfb.reserve() as y_blk:
            y_blk.store(acc)

    @ttl.datamovement()
    def read():
        for k in range(K):
            with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                ttl.copy(a[0:M, k], a_blk).wait()
                ttl.copy(b[k, 0:N], b_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0:M, 0:N]).wait()


device = ttnn.open_device(device_id=0)
a_host = bf16_exact((M * 32, K * 32), seed=11, step=0.125)
b_host = bf16_exact((K * 32, N * 32), seed=12, step=0.125)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


a, b, y = to_device(a_host), to_device(b_host), to_device(torch.zeros(M * 32, N * 32))
matmul_kernel(a, b, y)
assert torch.allclose(ttnn.to_torch(y).float(), a_host @ b_host, rtol=1e-2, atol=1e-2)
save_outputs(y=y)
ttnn.close_device(device)
