"""placeholder"""
def write(programs, agreed):
    raise NotImplementedError
