"""torch dtypes where ttnn dtypes are expected: in 1.1.6 ``ttnn.float32`` *is* ``torch.float32``
(and ``ttnn.bfloat16`` is torch's), so its programs write ``ttnn.empty(shape, dtype=torch.float32)``
and ``ttnn.from_torch(t, dtype=torch.float32)``; also ``Tensor.to_torch()`` as a method.

Variants: empty from_torch to_torch_method
"""

import sys

import torch
import ttnn

from conformance_io import bf16_exact, save_outputs

HOW = sys.argv[1]
data = bf16_exact((32, 64), seed=60)
if HOW == "empty":
    t = ttnn.empty((32, 64), dtype=torch.float32, layout=ttnn.TILE_LAYOUT)
    answers = {"rows": t.shape[0], "cols": t.shape[1], "float32": t.dtype == ttnn.float32}
elif HOW == "from_torch":
    t = ttnn.from_torch(data, dtype=torch.float32, layout=ttnn.TILE_LAYOUT)
    answers = {"t": t, "float32": t.dtype == ttnn.float32}
else:
    t = ttnn.from_torch(data, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
    answers = {"same": bool(torch.equal(t.to_torch(), ttnn.to_torch(t)))}
save_outputs(**answers)
