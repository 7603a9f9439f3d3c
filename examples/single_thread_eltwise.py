"""A single-threaded elementwise operation: y = sqrt(a * a + b * b), written without threads.

The body says what one output block computes: load two tensor slices, combine them with block
math, store the result. The decorator's metadata spreads the output blocks of ``y`` (``block=``
tiles each) over a 2x2 grid; the compiler writes the reader, compute and writer threads, their
dataflow buffers and every reserve/push/wait/pop (``tilecraft show-threads`` prints them).
"""

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

BR, BC = 1, 2  # tiles per output block


@ttl.operation(grid=(2, 2), block=(BR, BC), schedule="contiguous")
def hypot(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    r, c = ttl.block_index()
    x = a[r * BR:(r + 1) * BR, c * BC:(c + 1) * BC]
    z = b[r * BR:(r + 1) * BR, c * BC:(c + 1) * BC]
    y[r * BR:(r + 1) * BR, c * BC:(c + 1) * BC] = ttl.math.sqrt(x * x + z * z)


torch.manual_seed(3)
a = torch.randn(4 * 32, 8 * 32).to(torch.bfloat16)
b = torch.randn(4 * 32, 8 * 32).to(torch.bfloat16)
a_t = ttnn.from_torch(a, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b_t = ttnn.from_torch(b, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y_t = ttnn.zeros(a.shape, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
hypot(a_t, b_t, y_t)

want = torch.sqrt(a.float() ** 2 + b.float() ** 2)
got = ttnn.to_torch(y_t).float()
assert torch.allclose(got, want, rtol=2 ** -6, atol=2 ** -6), (got - want).abs().max()
print("single_thread_eltwise: OK")
