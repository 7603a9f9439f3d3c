import torch

import tilecraft.ttnn as ttnn

x = ttnn.from_torch(torch.ones(1, 1, 32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
prefetch = ttnn.dram_prefetcher  # ERROR-HERE
