import tilecraft.ttnn as ttnn

mesh = ttnn.open_mesh_device(ttnn.MeshShape(2, 4))  # ERROR-HERE
