import tilecraft.ttnn as ttnn

device = ttnn.open_device(device_id=99)  # ERROR-HERE
