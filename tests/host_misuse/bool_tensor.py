import torch

import tilecraft.ttnn as ttnn

mask = torch.ones(32, 32) > 0
t = ttnn.from_torch(mask)  # ERROR-HERE
