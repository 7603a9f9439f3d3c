import torch

import tilecraft.ttnn as ttnn

x = ttnn.from_torch(torch.ones(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.multiplyy(x, x)  # ERROR-HERE
