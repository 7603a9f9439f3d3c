import torch

import tilecraft.ttnn as ttnn

mesh = ttnn.open_mesh_device(ttnn.MeshShape(1, 3))
t = ttnn.from_torch(torch.ones(64, 64), device=mesh, mesh_mapper=ttnn.ShardTensorToMesh(mesh, dim=0))  # ERROR-HERE
