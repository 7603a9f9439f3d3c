import tilecraft.ttnn as ttnn

t = ttnn.zeros((-32, 64))  # ERROR-HERE
