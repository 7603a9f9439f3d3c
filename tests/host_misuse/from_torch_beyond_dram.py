import torch

import tilecraft.ttnn as ttnn

# 2^35 float32 values: 128 GiB, as a view of one value (torch allocates nothing for it)
values = torch.zeros(1).expand(2**17, 2**18)
t = ttnn.from_torch(values, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)  # ERROR-HERE
