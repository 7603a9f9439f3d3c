import torch

import tilecraft.ttnn as ttnn

t = ttnn.from_torch(torch.ones(32, 32), dtype=torch.float64)  # ERROR-HERE
