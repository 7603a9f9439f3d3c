"""A script that tunes an operation and then checks its result against torch, as users write them."""

import torch

import tilecraft.ttnn as ttnn
from scale_op import scale

torch.manual_seed(0)
x = ttnn.from_torch(torch.randn(128, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((128, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
scale(x, y)
assert torch.equal(ttnn.to_torch(y), ttnn.to_torch(x) * 2), "y is not 2 x"
