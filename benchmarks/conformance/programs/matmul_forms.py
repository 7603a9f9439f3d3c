"""A whole-K matrix product plus a bias, stored at once: ``a @ b + c``, ``ttl.math.matmul(a, b) + c``,
``c + a @ b``.

One (2, 3) by (3, 2) tile product per run; the inputs are multiples of 1/8 (sums exact). The bias
is always read: the published simulator requires every waited block to be the source of a store.

Variants: operator function bias_first
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

FORM = sys.argv[1]
M, K, N = 2, 3, 2  # in tiles


@ttl.operation(grid=(1, 1))
def matmul_kernel(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(M, K), block_count=1)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(K, N), block_count=1)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=(M, N), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(M, N), block_count=1)

    @ttl.compute()
    def multiply():
        with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, c_dfb.wait() as c_blk, y_dfb.reserve() as y_blk:
            if FORM == "operator":
                y_blk.store(a_blk @ b_blk + c_blk)
            elif FORM == "function":
                y_blk.store(ttl.math.matmul(a_blk, b_blk) + c_blk)
            else:
                y_blk.store(c_blk + a_blk @ b_blk)

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk, c_dfb.reserve() as c_blk:
            ttl.copy(a[0:M, 0:K], a_blk).wait()
            ttl.copy(b[0:K, 0:N], b_blk).wait()
            ttl.copy(c[0:M, 0:N], c_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0:M, 0:N]).wait()


device = ttnn.open_device(device_id=0)
a_host = bf16_exact((M * 32, K * 32), seed=13, step=0.125)
b_host = bf16_exact((K * 32, N * 32), seed=14, step=0.125)
c_host = bf16_exact((M * 32, N * 32), seed=15, step=0.125)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


a, b, c = to_device(a_host), to_device(b_host), to_device(c_host)
y = to_device(torch.zeros(M * 32, N * 32))
matmul_kernel(a, b, c, y)
expected = a_host @ b_host + c_host
assert torch.allclose(ttnn.to_torch(y).float(), expected, rtol=1e-2, atol=1e-2)
save_outputs(y=y)
ttnn.close_device(device)
