"""``--level metal`` gives other bits than the default level: reduce_sum of a computed operand
(``blk * 3.0``) of a bfloat16 block into a bfloat16 block. The default level prints -17.125, the
metal level -16.75 (the fp32 golden is -17.1314). With a float32 input or output, or a plain
block operand (no ``* 3.0``), the two levels agree. Expected: the same bits at both levels."""
import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def kern(a, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 2), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.datamovement()
    def reader():
        with a_dfb.reserve() as blk:
            ttl.copy(a[0:1, 0:2], blk).wait()

    @ttl.compute()
    def compute():
        with a_dfb.wait() as blk, y_dfb.reserve() as out:
            out.store(ttl.math.reduce_sum(blk * 3.0, dims=[-2, -1]))

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as out:
            ttl.copy(out, y[0, 0]).wait()


torch.manual_seed(0)
a = ttnn.from_torch(torch.rand((32, 64)) * 4.0 - 2.0, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(a, y)
held = ttnn.to_torch(a).float()
print(f"{ttnn.to_torch(y)[0, 0].item()!r} (fp32 golden {(held * 3.0).sum().item():.4f})")
