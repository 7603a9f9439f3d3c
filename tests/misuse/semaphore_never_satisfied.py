import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(4, 1))
def kern(x, y):
    sem = ttl.Semaphore()
    to_first = sem.get_remote((0, 0))

    @ttl.datamovement()
    def barrier():
        cx, cy = ttl.core()
        if cx == 0:
            sem.wait_for(5)  # ERROR-HERE
        else:
            to_first.inc(1)

    return ttl.Program(barrier)(x, y)


x = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(x, y)
