"""y = a @ b on a 4x4 grid with A multicast along grid rows and B down grid columns, 512 x 256 x 512
bfloat16: the TT-Lang side of benchmarks/emit_vs_hand.py's multicore reuse/multicast matmul. The
program is benchmarks/perf_kernels.py's ``matmul_mcast`` with the blocking of the hand-written
examples/metal/matmul_multicore_mcast host at this size (4 x 4 output tiles per core, K blocks of 2)."""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
import tilecraft.ttnn as ttnn  # noqa: E402
from benchmarks.perf_kernels import matmul_mcast  # noqa: E402

M, K, N = 512, 256, 512
torch.manual_seed(0)
a_host = torch.randn(M, K).to(torch.bfloat16)
b_host = torch.randn(K, N).to(torch.bfloat16)
a = ttnn.from_torch(a_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(b_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((M, N), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
matmul_mcast((4, 4), 4, 2, 4)(a, b, y)
want = a_host.float() @ b_host.float()
got = ttnn.to_torch(y).float()
assert torch.allclose(got, want, rtol=2e-2, atol=2e-2 * float(want.abs().max())), (got - want).abs().max()
print("matmul_mcast: OK")
