"""A batched matrix product of 3-D blocks, ``(B, M, K) @ (B, K, N) -> (B, M, N)`` tiles: block i
of the left times block i of the right, as the specification's batched matmul (issue 22, defect
5c); ``product`` stores ``a @ b``, ``bias`` stores ``c + a @ b``.

The inputs are multiples of 1/8 in bfloat16, so every sum is exact.

Variants: product bias
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

FORM = sys.argv[1]
B, M, K, N = 2, 1, 3, 2  # in tiles: a chunk of 2 output rows would span both batches


@ttl.operation(grid=(1, 1))
def bmm(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(B, M, K), block_count=1)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(B, K, N), block_count=1)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=(B, M, N), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(B, M, N), block_count=1)

    @ttl.compute()
    def multiply():
        with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
            if FORM == "product":
                y_blk.store(a_blk @ b_blk)
            else:  # the published simulator wants every waited block stored from: c only here
                with c_dfb.wait() as c_blk:
                    y_blk.store(c_blk + a_blk @ b_blk)

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
            ttl.copy(a[0:B, 0:M, 0:K], a_blk).wait()
            ttl.copy(b[0:B, 0:K, 0:N], b_blk).wait()
        if FORM == "bias":
            with c_dfb.reserve() as c_blk:
                ttl.copy(c[0:B, 0:M, 0:N], c_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0:B, 0:M, 0:N]).wait()


device = ttnn.open_device(device_id=0)
a_host = bf16_exact((B, M * 32, K * 32), seed=51, step=0.125)
b_host = bf16_exact((B, K * 32, N * 32), seed=52, step=0.125)
c_host = bf16_exact((B, M * 32, N * 32), seed=53, step=0.125)


def to_device(t, dtype=ttnn.bfloat16):
    return ttnn.from_torch(t, dtype=dtype, layout=ttnn.TILE_LAYOUT, device=device)


a, b, c = to_device(a_host), to_device(b_host), to_device(c_host)
y = to_device(torch.zeros(B, M * 32, N * 32), ttnn.float32)
bmm(a, b, c, y)
expected = a_host @ b_host + (0 if FORM == "product" else c_host)
assert torch.equal(ttnn.to_torch(y), expected)
save_outputs(y=y)
ttnn.close_device(device)
