"""A single-threaded row softmax: y = exp(x - max(x)) / sum(exp(x - max(x))) along rows.

An output block is one band of 32 rows across the whole width (``block=(1, None)``: None takes the
tensor's whole extent), so each band's reductions stay inside one block on one core. The bands are
spread over a 2x1 grid, strided (core i takes bands i, i + 2, ...). The row maximum and the row sum
land in column 0 of a one-tile block and are broadcast back across the band.
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(2, 1), block=(1, None), schedule="strided")
def softmax(x: ttnn.Tensor, y: ttnn.Tensor) -> None:
    r, _ = ttl.block_index()
    C = x.shape[1] // 32
    band = x[r, 0:C]
    row_max = ttl.block.broadcast(ttl.math.reduce_max(band, dims=[-1]), dims=[-1], shape=(1, C))
    e = ttl.math.exp(band - row_max)
    total = ttl.block.broadcast(ttl.math.reduce_sum(e, dims=[-1]), dims=[-1], shape=(1, C))
    y[r, 0:C] = e * ttl.math.recip(total)


torch.manual_seed(4)
M, N = 4 * 32, 4 * 32
x_host = torch.randn(M, N) * 3.0
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(M, N), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
softmax(x, y)

got = ttnn.to_torch(y).float()
want = torch.softmax(x_host.to(torch.bfloat16).float(), dim=-1)
assert torch.allclose(got, want, rtol=2e-2, atol=2e-3), (got - want).abs().max()
assert torch.allclose(got.sum(-1), torch.ones(M), atol=2e-2)
print("single_thread_softmax: OK")
