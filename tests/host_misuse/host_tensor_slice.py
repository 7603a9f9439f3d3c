import torch

import tilecraft.ttnn as ttnn

a = ttnn.from_torch(torch.zeros(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
first = a[0, 0:2]  # ERROR-HERE
