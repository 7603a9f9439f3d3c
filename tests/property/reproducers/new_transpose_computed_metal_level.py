"""``--level metal`` gives other bits than the default level: the transpose of a computed operand
(``sqrt(blk)``) of a 2 x 3-tile bfloat16 block, stored into a bfloat8_b block: the sum of the second
tile column prints 2885.546875 at the default level and 2886.140625 at the metal level. A single
tile, a plain block operand, or a bfloat16 / float32 output agree. Expected: the same bits."""

import torch

import ttl
import ttnn

OUT = ttnn.bfloat8_b


@ttl.operation(grid=(1, 1))
def kern(a, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(2, 3), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(3, 2), block_count=1)

    @ttl.datamovement()
    def reader():
        with a_dfb.reserve() as blk:
            ttl.copy(a[0:2, 0:3], blk).wait()

    @ttl.compute()
    def compute():
        with a_dfb.wait() as blk, y_dfb.reserve() as out:
            out.store(ttl.math.transpose(ttl.math.sqrt(blk)))

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as out:
            ttl.copy(out, y[0:3, 0:2]).wait()


torch.manual_seed(0)
a = ttnn.from_torch(torch.rand((64, 96)) * 2.0, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((96, 64), dtype=OUT, layout=ttnn.TILE_LAYOUT)
kern(a, y)
print(ttnn.to_torch(y)[0, :4].tolist(), ttnn.to_torch(y)[:, 32:].float().sum().item())
