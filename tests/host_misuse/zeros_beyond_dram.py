import tilecraft.ttnn as ttnn

device = ttnn.open_device(device_id=0)
t = ttnn.zeros((2**31, 2**31), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)  # ERROR-HERE
