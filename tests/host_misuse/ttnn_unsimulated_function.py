import torch

import tilecraft.ttnn as ttnn

x = ttnn.from_torch(torch.ones(1, 1, 32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
mask = ttnn.create_group_norm_input_mask(x.shape[-1], 8, 1)  # ERROR-HERE
