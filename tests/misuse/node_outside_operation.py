import tilecraft as ttl

first = ttl.node(dims=1)  # ERROR-HERE
