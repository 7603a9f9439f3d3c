import tilecraft.ttnn as ttnn

t = ttnn.from_torch(3)  # ERROR-HERE
