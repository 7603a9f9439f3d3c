import torch

import tilecraft.ttnn as ttnn

t = ttnn.from_torch(torch.ones(64), layout=ttnn.ROW_MAJOR_LAYOUT)
cols = t.shape[1]  # ERROR-HERE
