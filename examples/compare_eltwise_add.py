"""y = a + b, four tiles per block: the TT-Lang side of docs/emit.md's elementwise comparison.

Its emitted kernels are compared with tilecraft/metal/reference_kernels/eltwise_add (hand
written): one add_init for the whole kernel, four tiles per DST acquisition, one NoC barrier per
four-tile block.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

BLOCK = 4  # tiles per block (one DST acquisition)


@ttl.operation(grid=(1, 1))
def eltwise_add(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    rows = a.shape[0] // 32
    blocks = a.shape[1] // 32 // BLOCK
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, BLOCK), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, BLOCK), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, BLOCK), block_count=2)

    @ttl.datamovement()
    def reader():
        for r in range(rows):
            for c in range(blocks):
                with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                    a_xf = ttl.copy(a[r, c * BLOCK:(c + 1) * BLOCK], a_blk)
                    b_xf = ttl.copy(b[r, c * BLOCK:(c + 1) * BLOCK], b_blk)
                    a_xf.wait()
                    b_xf.wait()

    @ttl.compute()
    def compute():
        for _ in range(rows * blocks):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
                y_blk.store(a_blk + b_blk)

    @ttl.datamovement()
    def writer():
        for r in range(rows):
            for c in range(blocks):
                with y_dfb.wait() as y_blk:
                    ttl.copy(y_blk, y[r, c * BLOCK:(c + 1) * BLOCK]).wait()


torch.manual_seed(0)
a_host, b_host = torch.randn(64, 256), torch.randn(64, 256)
a = ttnn.from_torch(a_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(b_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
eltwise_add(a, b, y)
want = (a_host.to(torch.bfloat16).float() + b_host.to(torch.bfloat16).float()).to(torch.bfloat16)
# the device's adder rounds ties away from zero (--level cpp computes as the device): one bfloat16 ulp
assert torch.allclose(ttnn.to_torch(y).float(), want.float(), rtol=2 ** -7, atol=0)
print("compare_eltwise_add: OK")
